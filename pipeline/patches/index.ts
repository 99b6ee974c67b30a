/**
 * Every change this site makes to a dependency's built code or to Next's bundler configuration,
 * in one place. Each patch names the file it changes and fails the build (and its test in
 * __tests__/pipeline/patches.test.ts or clientChunks.test.ts) when an upgrade changes what it
 * patches, instead of silently shipping the unpatched behaviour.
 *
 * The patches do not depend on each other's order: each finds Nextra's rules by what they load,
 * not by where an earlier patch left them.
 */
import path from 'node:path'
import { webpackLikeClientChunks } from './clientChunks'

/** The parts of a webpack or Rspack configuration the patches touch. */
export interface BundlerRule {
  test?: RegExp
  enforce?: 'pre' | 'post'
  resourceQuery?: RegExp
  use?: Array<{ loader: string; options?: Record<string, unknown> }>
  oneOf?: BundlerRule[]
  rules?: BundlerRule[]
  [key: string]: unknown
}
export interface BundlerConfig {
  module: { rules: Array<BundlerRule | null | false | '...'> }
  resolve: { alias?: Record<string, unknown>; [key: string]: unknown }
  [key: string]: unknown
}

export interface PatchOptions {
  bundler: 'webpack' | 'rspack'
  /** Whether this is the server compile (Next runs one for the server and one for the browser). */
  isServer: boolean
  /** `next dev`: no chunk splitting to correct (Next turns it off for the browser in development). */
  dev: boolean
  /** The project root, which names the large-module chunks as Next does. */
  context: string
}

const here = (file: string) => path.join(__dirname, file)
export const PATCH_FILES = {
  presortedPageMap: here('presortedPageMap.cjs'),
  mobileBreakpoint: here('mobileBreakpoint.cjs'),
  lazySidebarFolders: here('lazySidebarFolders.cjs'),
  components: here('components.ts'),
  headlessUi: here('headlessUi.tsx'),
  plainImages: here('plainImages.cjs'),
  lazyQrCode: here('lazyQrCode.cjs'),
  lazyAuthenticatorScreens: here('lazyAuthenticatorScreens.cjs'),
  styleTokens: here('styleTokens.cjs'),
  pickBy: here('pickBy.ts'),
  lazyAuth: path.join(__dirname, '../../lib/auth/lazyAuth.ts'),
  amplifyForUi: path.join(__dirname, '../../lib/auth/amplifyForUi.ts'),
  noServerTraces: here('noServerTraces.cjs'),
} as const

/** The theme keeps the page map's build-time order instead of sorting it again (presortedPageMap.cjs). */
export function presortedPageMap(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra[\\/]dist[\\/]client[\\/]normalize-pages\.js$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.presortedPageMap }],
  })
}

/** Moves the theme's mobile breakpoint to the site's 996 px (mobileBreakpoint.cjs). */
export function mobileBreakpoint(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra-theme-docs[\\/]dist[\\/](index\.js|style\.css)$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.mobileBreakpoint }],
  })
}

/** A collapsed sidebar folder's pages render once the reader opens it (lazySidebarFolders.cjs). */
export function lazySidebarFolders(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra-theme-docs[\\/]dist[\\/]index\.js$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.lazySidebarFolders }],
  })
}

/** Nextra's component index without its heavy, unused parts (components.ts). */
export function slimComponents(config: BundlerConfig): void {
  config.resolve.alias = { ...config.resolve.alias, 'nextra/components$': PATCH_FILES.components }
}

/**
 * The theme's buttons, colour-mode select and navbar menus, without Headless UI's positioning and
 * accessibility libraries (headlessUi.tsx). Scoped to the theme and Nextra's Button: Tabs and
 * Popup, which writers may use on a page, keep the real library.
 */
export const HEADLESS_UI_USERS = /(nextra-theme-docs[\\/]dist[\\/]index\.js|nextra[\\/]dist[\\/]client[\\/]components[\\/]button\.js)$/
export function lightHeadlessUi(config: BundlerConfig): void {
  config.module.rules.push({ test: HEADLESS_UI_USERS, resolve: { alias: { '@headlessui/react$': PATCH_FILES.headlessUi } } })
}

/**
 * Content images are plain <img> elements that medium-zoom enlarges (components/ImageZoom.tsx).
 * Nextra's MDX components wrap each in react-medium-image-zoom and next/image, about 20 kB of
 * gzip JavaScript on every docs page that nothing uses (plainImages.cjs).
 */
export function plainImages(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra[\\/]dist[\\/]client[\\/]mdx\.js$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.plainImages }],
  })
}

/** The sign-in form's QR code library, loaded only for its TOTP set-up screen (lazyQrCode.cjs). */
export function lazyQrCode(config: BundlerConfig): void {
  config.module.rules.push({
    test: /@aws-amplify[\\/]ui-react[\\/]dist[\\/]esm[\\/]components[\\/]Authenticator[\\/]SetupTotp[\\/]SetupTotp\.mjs$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.lazyQrCode }],
  })
}

/** The Authenticator's screens other than sign-in, loaded when the reader reaches one (lazyAuthenticatorScreens.cjs). */
export const AUTHENTICATOR_SCREEN_USERS = /@aws-amplify[\\/]ui-react[\\/]dist[\\/]esm[\\/]components[\\/]Authenticator[\\/](Router[\\/]Router|shared[\\/]SignInSignUpTabs|Authenticator|hooks[\\/]useCustomComponents[\\/]defaultComponents)\.mjs$/
export function lazyAuthenticatorScreens(config: BundlerConfig): void {
  config.module.rules.push({ test: AUTHENTICATOR_SCREEN_USERS, enforce: 'pre', use: [{ loader: PATCH_FILES.lazyAuthenticatorScreens }] })
}

/** Amplify UI's style props read the default theme's names, built once, not the whole theme on each render (styleTokens.cjs). */
export function styleTokens(config: BundlerConfig): void {
  config.module.rules.push({
    test: /@aws-amplify[\\/]ui-react[\\/]dist[\\/]esm[\\/](hooks[\\/]useTheme|components[\\/]ThemeProvider[\\/]ThemeContext|primitives[\\/]shared[\\/]responsive[\\/]utils)\.mjs$/,
    enforce: 'pre',
    use: [{ loader: PATCH_FILES.styleTokens }],
  })
}

/**
 * Amplify UI's files get `aws-amplify/auth` loaded on first use (lib/auth/lazyAuth.ts): the
 * sign-in form draws without the Cognito flows, which load when the reader submits it.
 */
export const AMPLIFY_UI_FILES = /@aws-amplify[\\/]ui(-react(-core)?)?[\\/]dist[\\/]esm[\\/]/
export function lazyAuth(config: BundlerConfig): void {
  config.module.rules.push({ test: AMPLIFY_UI_FILES, resolve: { alias: { 'aws-amplify/auth$': PATCH_FILES.lazyAuth, 'aws-amplify$': PATCH_FILES.amplifyForUi } } })
}

/**
 * XState's React bindings use the `use-sync-external-store` shim, for React before 18; React 18
 * has the hook itself, which the package's own non-shim entry uses.
 */
export const XSTATE_REACT_FILES = /node_modules[\\/]@xstate[\\/]react[\\/]/
export function noSyncExternalStoreShim(config: BundlerConfig): void {
  config.module.rules.push({ test: XSTATE_REACT_FILES, resolve: { alias: { 'use-sync-external-store/shim/with-selector$': 'use-sync-external-store/with-selector' } } })
}

/** The authenticator machine's one lodash `pickBy` call, without lodash's iteratee machinery (pickBy.ts). */
export const PICK_BY_USER = /@aws-amplify[\\/]ui[\\/]dist[\\/]esm[\\/]machines[\\/]authenticator[\\/]utils\.mjs$/
export function smallPickBy(config: BundlerConfig): void {
  config.module.rules.push({ test: PICK_BY_USER, resolve: { alias: { 'lodash/pickBy.js$': PATCH_FILES.pickBy } } })
}

/**
 * Amplify's modules import the SHA-256 library for nothing but its side effects, which it has
 * none of (`import '@aws-crypto/sha256-js'`, left by Amplify's build where a module's own use was
 * compiled away), and the package does not say it is free of them, so the bundler kept it, with
 * the `buffer` polyfill and tslib it brings: on the sign-in page and in the session code every
 * page loads to renew a session. Marked side-effect free, it stays only where it is used
 * (signing in with SRP, which loads with the reader's first submit).
 */
export const SIDE_EFFECT_FREE_PACKAGES = /node_modules[\\/]@aws-crypto[\\/]sha256-js[\\/]/
export function sideEffectFreeSha256(config: BundlerConfig): void {
  config.module.rules.push({ test: SIDE_EFFECT_FREE_PACKAGES, sideEffects: false })
}

/**
 * Next's trace of its own server's files, which a static export never deploys (noServerTraces.cjs).
 * Called where next.config.ts loads: the trace runs in `next build`'s main process, which may not
 * be the one that compiles.
 */
export function skipServerTraces(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(PATCH_FILES.noServerTraces).skipServerTraces()
}

/** Applies every patch, for either bundler and both compiles. */
export function applyPatches(config: BundlerConfig, options: PatchOptions): BundlerConfig {
  if (options.bundler === 'rspack' && !options.isServer && !options.dev) webpackLikeClientChunks(config, options.context)
  presortedPageMap(config)
  mobileBreakpoint(config)
  lazySidebarFolders(config)
  slimComponents(config)
  lightHeadlessUi(config)
  plainImages(config)
  lazyQrCode(config)
  lazyAuthenticatorScreens(config)
  styleTokens(config)
  lazyAuth(config)
  sideEffectFreeSha256(config)
  noSyncExternalStoreShim(config)
  smallPickBy(config)
  return config
}
