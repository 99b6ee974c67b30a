/**
 * `aws-amplify` as Amplify UI's own files see it (next.config aliases it here: ./index.ts,
 * `lazyAuth`). They import only `Amplify`, to read the configuration (`Amplify.getConfig()`), which
 * the core library's `Amplify` answers as well: lib/auth/configureAmplify.ts configures that one.
 * The `aws-amplify` package's own `Amplify` brings the identity pool's credentials provider,
 * which nothing here uses, into the sign-in page. Measured by: the sign-in page's first-load
 * JavaScript in `npm run bench size`. Tested in __tests__/patches/signIn.test.ts.
 */
export { Amplify } from '@aws-amplify/core'
