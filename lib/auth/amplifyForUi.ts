/**
 * `aws-amplify` as Amplify UI's own files see it (next.config aliases it here: pipeline/patches,
 * `lazyAuth`). They import only `Amplify`, to read the configuration (`Amplify.getConfig()`), which
 * the core library's `Amplify` answers as well: lib/auth/configureAmplify.ts configures that one.
 * The `aws-amplify` package's own `Amplify` brings the identity pool's credentials provider,
 * which nothing here uses, into the sign-in page.
 */
export { Amplify } from '@aws-amplify/core'
