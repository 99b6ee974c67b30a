/**
 * Patches to Amplify and Amplify UI, which draw the sign-in form and renew a reader's session.
 * Measured by `npm run bench size` (the sign-in page's first-load JavaScript, at most 200 kB:
 * docs/benchmarks.md) and tested in __tests__/patches/signIn.test.ts against the installed
 * packages. lazyAuth.ts and amplifyForUi.ts are runtime modules too: pages/login.tsx imports
 * lazyAuth.ts itself.
 */
import path from 'node:path'
import type { BundlerConfig } from '../bundlerConfig'

const here = (file: string) => path.join(__dirname, file)
export const SIGN_IN_PATCH_FILES = {
  lazyAuthenticatorScreens: here('lazyAuthenticatorScreens.cjs'),
  styleTokens: here('styleTokens.cjs'),
  pickBy: here('pickBy.ts'),
  lazyAuth: here('lazyAuth.ts'),
  amplifyForUi: here('amplifyForUi.ts'),
} as const

/** The Authenticator's screens other than sign-in, loaded when the reader reaches one (lazyAuthenticatorScreens.cjs). */
export const AUTHENTICATOR_SCREEN_USERS = /@aws-amplify[\\/]ui-react[\\/]dist[\\/]esm[\\/]components[\\/]Authenticator[\\/](Router[\\/]Router|shared[\\/]SignInSignUpTabs|Authenticator|hooks[\\/]useCustomComponents[\\/]defaultComponents)\.mjs$/
export function lazyAuthenticatorScreens(config: BundlerConfig): void {
  config.module.rules.push({ test: AUTHENTICATOR_SCREEN_USERS, enforce: 'pre', use: [{ loader: SIGN_IN_PATCH_FILES.lazyAuthenticatorScreens }] })
}

/** Amplify UI's style props read the default theme's names, built once, not the whole theme on each render (styleTokens.cjs). */
export function styleTokens(config: BundlerConfig): void {
  config.module.rules.push({
    test: /@aws-amplify[\\/]ui-react[\\/]dist[\\/]esm[\\/](hooks[\\/]useTheme|components[\\/]ThemeProvider[\\/]ThemeContext|primitives[\\/]shared[\\/]responsive[\\/]utils)\.mjs$/,
    enforce: 'pre',
    use: [{ loader: SIGN_IN_PATCH_FILES.styleTokens }],
  })
}

/**
 * Amplify UI's files get `aws-amplify/auth` loaded on first use (lazyAuth.ts): the sign-in form
 * draws without the Cognito flows, which load when the reader submits it; and `aws-amplify` as
 * the core library's `Amplify` (amplifyForUi.ts).
 */
export const AMPLIFY_UI_FILES = /@aws-amplify[\\/]ui(-react(-core)?)?[\\/]dist[\\/]esm[\\/]/
export function lazyAuth(config: BundlerConfig): void {
  config.module.rules.push({ test: AMPLIFY_UI_FILES, resolve: { alias: { 'aws-amplify/auth$': SIGN_IN_PATCH_FILES.lazyAuth, 'aws-amplify$': SIGN_IN_PATCH_FILES.amplifyForUi } } })
}

/** The authenticator machine's one lodash `pickBy` call, without lodash's iteratee machinery (pickBy.ts). */
export const PICK_BY_USER = /@aws-amplify[\\/]ui[\\/]dist[\\/]esm[\\/]machines[\\/]authenticator[\\/]utils\.mjs$/
export function smallPickBy(config: BundlerConfig): void {
  config.module.rules.push({ test: PICK_BY_USER, resolve: { alias: { 'lodash/pickBy.js$': SIGN_IN_PATCH_FILES.pickBy } } })
}

/**
 * Amplify's modules import the SHA-256 library for nothing but its side effects, which it has
 * none of (`import '@aws-crypto/sha256-js'`, left by Amplify's build where a module's own use was
 * compiled away), and the package does not say it is free of them, so the bundler kept it, with
 * the `buffer` polyfill and tslib it brings: on the sign-in page and in the session code every
 * page loads to renew a session. Marked side-effect free, it stays only where it is used
 * (signing in with SRP, which loads with the reader's first submit). Measured by: the sign-in and
 * docs pages' first-load JavaScript.
 */
export const SIDE_EFFECT_FREE_PACKAGES = /node_modules[\\/]@aws-crypto[\\/]sha256-js[\\/]/
export function sideEffectFreeSha256(config: BundlerConfig): void {
  config.module.rules.push({ test: SIDE_EFFECT_FREE_PACKAGES, sideEffects: false })
}

/** Every patch to Amplify and Amplify UI. */
export function patchSignIn(config: BundlerConfig): void {
  lazyAuthenticatorScreens(config)
  styleTokens(config)
  lazyAuth(config)
  sideEffectFreeSha256(config)
  smallPickBy(config)
}
