/**
 * Every change this site makes to a dependency: to its built code, to how Next bundles it, or in
 * its place (a module the bundler gives instead of the dependency's). Grouped by what they patch:
 * Next (./next/), Nextra and its docs theme (./theme/), and the sign-in form's Amplify UI and
 * Amplify (./signIn/), which the bundler applies, and the MDX compile (./compile/), which the
 * content step's worker applies as it loads its modules (pipeline/compile/compileWorker.mjs).
 * next.config.ts applies the bundler's patches here; the runtime may import a patch's
 * module (pages/login.tsx imports ./signIn/lazyAuth.ts), and nothing here imports the build
 * (pipeline/).
 *
 * Each patch's header says why it exists and what measures it. Each names the file it changes and
 * fails the build (and its test in __tests__/patches/) when an upgrade changes what it patches,
 * instead of silently shipping the unpatched behaviour. Every place the project relies on a
 * dependency's private files or shapes, patches and build steps alike, is listed in
 * ./privateReaches.ts, each with the test that fails when an upgrade moves it.
 *
 * The patches do not depend on each other's order: each finds its files by what they load, not by
 * where an earlier patch left them.
 */
import type { BundlerConfig, PatchOptions } from './bundlerConfig'
import { patchNext } from './next'
import { patchSignIn, SIGN_IN_PATCH_FILES } from './signIn'
import { patchTheme, THEME_PATCH_FILES } from './theme'

export type { BundlerConfig, BundlerRule, PatchOptions } from './bundlerConfig'
export { devSourceMaps } from './next'

/** Each patch's own module, by name. */
export const PATCH_FILES = { ...THEME_PATCH_FILES, ...SIGN_IN_PATCH_FILES } as const

/** Applies every patch, for either bundler and both compiles. */
export function applyPatches(config: BundlerConfig, options: PatchOptions): BundlerConfig {
  patchNext(config, options)
  patchTheme(config)
  patchSignIn(config)
  return config
}
