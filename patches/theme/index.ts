/**
 * Patches to Nextra and its docs theme, as the browser's bundle gets them. Measured by
 * `npm run bench size` (a docs page's first-load JavaScript, docs/benchmarks.md) and tested in
 * __tests__/patches/theme.test.ts and headlessUi.test.tsx against the installed packages.
 */
import path from 'node:path'
import type { BundlerConfig } from '../bundlerConfig'

const here = (file: string) => path.join(__dirname, file)
export const THEME_PATCH_FILES = {
  presortedPageMap: here('presortedPageMap.cjs'),
  mobileBreakpoint: here('mobileBreakpoint.cjs'),
  lazySidebarFolders: here('lazySidebarFolders.cjs'),
  components: here('components.ts'),
  headlessUi: here('headlessUi.tsx'),
  plainImages: here('plainImages.cjs'),
  readerLayout: here('readerLayout.cjs'),
} as const

/** The theme keeps the page map's build-time order instead of sorting it again (presortedPageMap.cjs). */
export function presortedPageMap(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra[\\/]dist[\\/]client[\\/]normalize-pages\.js$/,
    enforce: 'pre',
    use: [{ loader: THEME_PATCH_FILES.presortedPageMap }],
  })
}

/** Moves the theme's mobile breakpoint to the site's 996 px (mobileBreakpoint.cjs). */
export function mobileBreakpoint(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra-theme-docs[\\/]dist[\\/](index\.js|style\.css)$/,
    enforce: 'pre',
    use: [{ loader: THEME_PATCH_FILES.mobileBreakpoint }],
  })
}

/** A collapsed sidebar folder's pages render once the reader opens it (lazySidebarFolders.cjs). */
export function lazySidebarFolders(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra-theme-docs[\\/]dist[\\/]index\.js$/,
    enforce: 'pre',
    use: [{ loader: THEME_PATCH_FILES.lazySidebarFolders }],
  })
}

/** Nextra's component index without its heavy, unused parts (components.ts). */
export function slimComponents(config: BundlerConfig): void {
  config.resolve.alias = { ...config.resolve.alias, 'nextra/components$': THEME_PATCH_FILES.components }
}

/**
 * The theme's buttons, colour-mode select and navbar menus, without Headless UI's positioning and
 * accessibility libraries (headlessUi.tsx). Scoped to the theme and Nextra's Button: Tabs and
 * Popup, which writers may use on a page, keep the real library.
 */
export const HEADLESS_UI_USERS = /(nextra-theme-docs[\\/]dist[\\/]index\.js|nextra[\\/]dist[\\/]client[\\/]components[\\/]button\.js)$/
export function lightHeadlessUi(config: BundlerConfig): void {
  config.module.rules.push({ test: HEADLESS_UI_USERS, resolve: { alias: { '@headlessui/react$': THEME_PATCH_FILES.headlessUi } } })
}

/**
 * Content images are plain <img> elements that medium-zoom enlarges (components/ImageZoom.tsx).
 * Nextra's MDX components wrap each in react-medium-image-zoom and next/image: JavaScript on every
 * docs page that nothing uses (plainImages.cjs; its size: docs/benchmarks.md, figures behind choices in the code).
 */
export function plainImages(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra[\\/]dist[\\/]client[\\/]mdx\.js$/,
    enforce: 'pre',
    use: [{ loader: THEME_PATCH_FILES.plainImages }],
  })
}

/** The layout as a keyboard or screen reader meets it: focus order, the menu button's state, landmarks (readerLayout.cjs). */
export function readerLayout(config: BundlerConfig): void {
  config.module.rules.push({
    test: /nextra-theme-docs[\\/]dist[\\/]index\.js$/,
    enforce: 'pre',
    use: [{ loader: THEME_PATCH_FILES.readerLayout }],
  })
}

/** Every patch to Nextra and its theme. */
export function patchTheme(config: BundlerConfig): void {
  presortedPageMap(config)
  mobileBreakpoint(config)
  lazySidebarFolders(config)
  slimComponents(config)
  lightHeadlessUi(config)
  plainImages(config)
  readerLayout(config)
}
