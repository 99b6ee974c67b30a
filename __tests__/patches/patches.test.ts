/**
 * @jest-environment node
 *
 * The patches as next.config.ts applies them (patches/index.ts): every one in place, under either
 * bundler.
 */
import { applyPatches, PATCH_FILES, type BundlerConfig } from '../../patches'

describe('applyPatches', () => {
  // No MDX page is bundled any more (pages/[[...slug]].tsx renders compiled documents), so no patch
  // touches Nextra's MDX loader; the theme's, Nextra's components' and Amplify's patches remain.
  const config = (): BundlerConfig => ({ module: { rules: ['...'] }, resolve: { alias: {} } })

  test.each(['rspack', 'webpack'] as const)('under %s, every module patch is in place', (bundler) => {
    // The server compile: the browser's chunk split (clientChunks.test.ts) needs Next's own groups.
    const patched = applyPatches(config(), { bundler, isServer: true, dev: false, context: '/site' })
    expect(patched.resolve.alias!['nextra/components$']).toBe(PATCH_FILES.components)
    const loaders = patched.module.rules.flatMap((rule) => (rule && typeof rule === 'object' && Array.isArray(rule.use) ? rule.use.map((use) => use.loader) : []))
    for (const file of [PATCH_FILES.presortedPageMap, PATCH_FILES.mobileBreakpoint, PATCH_FILES.lazySidebarFolders, PATCH_FILES.plainImages, PATCH_FILES.styleTokens]) expect(loaders).toContain(file)
    expect(loaders.some((loader) => /nextra\/loader|pagePath|sectionPageMap/.test(loader))).toBe(false)
  })
})
