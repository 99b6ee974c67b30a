/**
 * @jest-environment node
 *
 * Each patch in pipeline/patches against the installed Nextra: an upgrade that changes what a
 * patch relies on fails the test that names the patch.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { applyPatches, HEADLESS_UI_USERS, PATCH_FILES, type BundlerConfig, type SectionPageMapOptions } from '../../pipeline/patches'

const nextraDir = path.dirname(require.resolve('nextra/package.json'))
const themeDir = path.join(process.cwd(), 'node_modules/nextra-theme-docs')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const presorted = require(PATCH_FILES.presortedPageMap) as ((source: string) => string) & { FROM: string }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const breakpoint = require(PATCH_FILES.mobileBreakpoint) as ((this: { resourcePath: string }, source: string) => string) & { MOBILE_MAX: number }

/** Nextra's page loader, then the section page-map loader, on one page (fixtures/runPageLoaders.cjs). */
function loadPage(page: string, resolve: 'webpack' | 'rspack', wrap: 'patched' | 'unpatched'): { page: string; scoped: string; second: { same: boolean; searchTitle?: string; firstSearchTitle?: string; compiles: number } } {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'fixtures/runPageLoaders.cjs'), page, resolve, wrap], { encoding: 'utf8', stdio: 'pipe' })
  return JSON.parse(output)
}

describe('pagePath: Nextra under Rspack', () => {
  test('without the patch, Nextra fails every page on the resolve data Rspack gives its loader', () => {
    expect(() => loadPage('pages/docs/leads/intro.mdx', 'rspack', 'unpatched')).toThrow(/"path" argument must be of type string/)
  })

  test('with it, a page reached through pages/docs gets the same route and output as under webpack', () => {
    const rspack = loadPage('pages/docs/leads/intro.mdx', 'rspack', 'patched')
    const webpack = loadPage('pages/docs/leads/intro.mdx', 'webpack', 'unpatched')
    expect(rspack.page).toContain("'/docs/leads/intro'")
    expect(rspack.page).toContain('"filePath":"pages/docs/leads/intro.mdx"')
    expect(rspack.scoped).toBe(webpack.scoped)
  })

  test("compiles a page's MDX once for Next's two compiles; the second gets the same module and search data", () => {
    expect(loadPage('pages/docs/leads/intro.mdx', 'webpack', 'unpatched').second.compiles).toBe(2)
    const { second } = loadPage('pages/docs/leads/intro.mdx', 'rspack', 'patched')
    expect(second.compiles).toBe(1)
    expect(second.same).toBe(true)
    expect(second.firstSearchTitle).toBe('Leads API introduction')
    expect(second.searchTitle).toBe(second.firstSearchTitle)
  })
})

describe('sectionPageMap', () => {
  test("points the installed Nextra's page at its section's page map, with the build's date", () => {
    const { scoped } = loadPage('pages/docs/support-twilio/intro.mdx', 'rspack', 'patched')
    expect(scoped).toMatch(/import \{ pageMap \} from '[^']*nextra-page-map-\.mjs\?scope=support-twilio'/)
    expect(scoped).toContain('"timestamp":1700000000000')
  })
})

describe('presortedPageMap', () => {
  const normalizePages = fs.readFileSync(path.join(nextraDir, 'dist/client/normalize-pages.js'), 'utf8')

  test("turns the installed Nextra's name comparison into keeping the build-time order", () => {
    const patched = presorted(normalizePages)
    expect(patched).not.toContain('localeCompare')
    expect(patched).toContain('return 0; /* presorted at build time')
  })

  test('fails the build when Nextra no longer compares names the way it did', () => {
    expect(() => presorted(normalizePages.replace(presorted.FROM, 'return a.name < b.name ? -1 : 1;'))).toThrow(/expected 1 × .* found 0; Nextra changed/)
  })
})

describe('mobileBreakpoint', () => {
  const patch = (file: string, source = fs.readFileSync(path.join(themeDir, 'dist', file), 'utf8')) =>
    breakpoint.call({ resourcePath: path.join(themeDir, 'dist', file) }, source)

  test("moves the installed theme's 768 px breakpoint to 996 px in its script and its styles", () => {
    for (const file of ['index.js', 'style.css']) {
      const patched = patch(file)
      expect(patched).not.toMatch(/767px|768px|innerWidth [<>] 76[78]/)
      expect(patched).toContain(String(breakpoint.MOBILE_MAX))
    }
  })

  test('fails the build when the theme changes a breakpoint it patches', () => {
    const css = fs.readFileSync(path.join(themeDir, 'dist/style.css'), 'utf8').replace('(max-width:767px)', '(max-width:639px)')
    expect(() => patch('style.css', css)).toThrow(/mobileBreakpointLoader: expected 1 × "\(max-width:767px\)".*the theme changed/)
  })
})

describe('lazySidebarFolders', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lazyFolders = require(PATCH_FILES.lazySidebarFolders) as (source: string) => string
  const theme = () => fs.readFileSync(path.join(themeDir, 'dist/index.js'), 'utf8')
  const folderBody = (source: string) => source.slice(source.indexOf('function FolderImpl('), source.indexOf('function Separator('))

  test("the installed theme's sidebar folder renders its pages only once it is or was open", () => {
    const folder = folderBody(lazyFolders(theme()))
    // The folder's open state is what Nextra computes, and the flag is set from it before rendering.
    expect(folder).toMatch(/const open = [^\n]+;\n[\s\S]*const wasOpen = useRef5\(false\);\n {2}if \(open\) wasOpen\.current = true;/)
    expect(folder).toContain('children: wasOpen.current && /* @__PURE__ */ jsx21(\n      Menu2,')
    // useRef5 is the sidebar module's own import of React's useRef.
    expect(theme()).toMatch(/\/\/ src\/components\/sidebar\.tsx[\s\S]*?import \{[^}]*useRef as useRef5[^}]*\} from "react";[\s\S]*function FolderImpl\(/)
  })

  test('fails the build when the theme changes the folder it patches', () => {
    const changed = theme().replace('children: /* @__PURE__ */ jsx21(\n      Menu2,', 'children: /* @__PURE__ */ jsx21(\n      Menu3,')
    expect(() => lazyFolders(changed)).toThrow(/lazySidebarFoldersLoader: expected 1 × [\s\S]* in nextra-theme-docs\/dist\/index\.js, found 0; the theme changed/)
  })
})

describe('components', () => {
  test("re-exports every Nextra component except the heavy ones no page uses", () => {
    const index = fs.readFileSync(path.join(nextraDir, 'dist/client/components/index.js'), 'utf8')
    const nextraExports = /export \{([^}]*)\}/.exec(index)![1].split(',').map((name) => name.trim()).filter(Boolean)
    const ours = [...fs.readFileSync(PATCH_FILES.components, 'utf8').matchAll(/^export \{ (\w+) \}/gm)].map((match) => match[1])
    const leftOut = ['MathJax', 'MathJaxContext', 'Mermaid', 'Playground', 'RemoteContent', 'evaluate']
    expect([...ours, ...leftOut].sort()).toEqual([...nextraExports].sort())
  })
})

describe('headlessUi', () => {
  /** The names a built file imports from @headlessui/react. */
  const headlessImports = (file: string) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from "@headlessui\/react"/g)].flatMap((match) =>
      match[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0]).filter(Boolean)
    )

  test('provides every Headless UI component the installed theme and Nextra\'s Button import', () => {
    const users = [path.join(themeDir, 'dist/index.js'), path.join(nextraDir, 'dist/client/components/button.js')]
    const wanted = new Set(users.flatMap(headlessImports))
    expect(wanted.size).toBeGreaterThan(5)
    const provided = new Set([...fs.readFileSync(PATCH_FILES.headlessUi, 'utf8').matchAll(/^export (?:function|const) (\w+)/gm)].map((match) => match[1]))
    expect([...wanted].filter((name) => !provided.has(name))).toEqual([])
  })

  test('applies to the theme and Nextra\'s Button only: Tabs and Popup keep the real library', () => {
    expect(HEADLESS_UI_USERS.test(path.join(themeDir, 'dist/index.js'))).toBe(true)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/button.js'))).toBe(true)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/tabs/tabs.js'))).toBe(false)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/popup.js'))).toBe(false)
  })
})

describe('plainImages', () => {
  const mdx = fs.readFileSync(path.join(nextraDir, 'dist/client/mdx.js'), 'utf8')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.plainImages) as (source: string) => string

  test("renders content images as plain <img> in the installed Nextra, without its zoom wrapper", () => {
    const patched = patch(mdx)
    expect(patched).not.toContain('image-zoom')
    expect(patched).toContain('img: "img"')
  })

  test('fails the build when Nextra changes its image component', () => {
    expect(() => patch(mdx.replace('img: ImageZoom', 'img: Image'))).toThrow(/plainImagesLoader: expected 1 × "img: ImageZoom".*Nextra changed/)
  })
})

describe('lazyQrCode', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.lazyQrCode) as ((source: string) => string) & { FILE: string }
  const setupTotp = fs.readFileSync(path.join(process.cwd(), 'node_modules', patch.FILE), 'utf8')

  test("the installed Amplify UI's TOTP screen imports qrcode when it draws the code, not with the form", () => {
    const patched = patch(setupTotp)
    expect(patched).not.toMatch(/^import QRCode/m)
    expect(patched).toContain("(await import('qrcode')).default.toDataURL(totpCode)")
    expect(patched).not.toMatch(/\bQRCode\b/)
  })

  test('fails the build when Amplify UI changes how it draws the code', () => {
    expect(() => patch(setupTotp.replace('await QRCode.toDataURL(totpCode)', 'await QRCode.toString(totpCode)'))).toThrow(/lazyQrCodeLoader: expected 1 ×.*Amplify UI changed/)
  })
})

describe('noPageGitLookups', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.noPageGitLookups) as { LOOKUP: string; NEXTRA_LOADER_FILE: string }

  test("Nextra's loader still dates each page itself, with the method the patch replaces", () => {
    const loader = fs.readFileSync(path.join(process.cwd(), 'node_modules', patch.NEXTRA_LOADER_FILE), 'utf8')
    expect(loader).toContain(`repository.${patch.LOOKUP}(`)
  })

  test('after the patch, the Repository that an ES import of the package gets (as Nextra does) answers no date, without asking git', () => {
    // A process of its own: the patch changes a class for the whole process.
    const script = `
      require(${JSON.stringify(PATCH_FILES.noPageGitLookups)}).skipPageGitLookups()
      import('@napi-rs/simple-git').then(async (git) => {
        const Repository = git.Repository ?? git.default.Repository
        const repository = Repository.discover(process.cwd())
        process.stdout.write(JSON.stringify({ date: await repository.${patch.LOOKUP}('README.md') ?? null, own: Repository.prototype.${patch.LOOKUP}.name }))
      })`
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual({ date: null, own: 'noPageGitLookup' })
  })
})

describe('noServerTraces', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.noServerTraces) as { TRACER: string; CALLER_FILE: string }

  test("Next still traces its server through the compiled tracer's exports, at the moment it traces", () => {
    const caller = fs.readFileSync(path.join(process.cwd(), 'node_modules', patch.CALLER_FILE), 'utf8')
    expect(caller).toContain('const _nft = require("next/dist/compiled/@vercel/nft");')
    expect(caller).toContain(`await (0, _nft.${patch.TRACER})(`)
  })

  test('after the patch, the tracer Next calls finds no files, without reading any', () => {
    // A process of its own: the patch changes a module for the whole process.
    const script = `
      require(${JSON.stringify(PATCH_FILES.noServerTraces)}).skipServerTraces()
      const nft = require('next/dist/compiled/@vercel/nft')
      let reads = 0
      nft.${patch.TRACER}([require.resolve('next/dist/server/next-server.js')], { readFile: async () => (reads++, '') }).then((result) =>
        process.stdout.write(JSON.stringify({ files: result.fileList.size + result.esmFileList.size, reasons: result.reasons.size, reads })))`
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual({ files: 0, reasons: 0, reads: 0 })
  })
})

describe('applyPatches', () => {
  /** The rules Nextra's plugin adds, as it adds them (nextra/dist/server/index.js). */
  const nextraConfig = (): BundlerConfig => ({
    module: {
      rules: [
        '...',
        {
          test: /\.mdx?$/,
          oneOf: [
            { use: [{ loader: 'babel' }, { loader: 'nextra/loader', options: { isPageImport: true } }] },
            { use: [{ loader: 'babel' }, { loader: 'nextra/loader', options: {} }] },
          ],
        },
        { test: /_meta\.ts$/, use: [{ loader: 'babel' }, { loader: 'nextra/loader', options: { isMetaFile: true } }] },
      ],
    },
    resolve: { alias: {} },
  })
  const sectionPageMap: SectionPageMapOptions = { pagesDir: '/pages', timestampFor: () => null, routeToScope: () => null, transform: (pageMap) => pageMap }
  const loadersOf = (config: BundlerConfig, at: (rules: any[]) => any) => at(config.module.rules).use.map((use: { loader: string }) => use.loader)

  test('under Rspack every Nextra loader is wrapped, and the section loader runs after the page loader', () => {
    const config = applyPatches(nextraConfig(), { bundler: 'rspack', isServer: true, dev: false, context: '/site', sectionPageMap })
    expect(loadersOf(config, (rules) => rules[1].oneOf[0])).toEqual(['babel', PATCH_FILES.sectionPageMap, PATCH_FILES.pagePath])
    expect(loadersOf(config, (rules) => rules[2])).toEqual(['babel', PATCH_FILES.pagePath])
    expect(config.resolve.alias!['nextra/components$']).toBe(PATCH_FILES.components)
  })

  test('under webpack, Nextra keeps its own loader', () => {
    const config = applyPatches(nextraConfig(), { bundler: 'webpack', isServer: false, dev: false, context: '/site', sectionPageMap })
    expect(loadersOf(config, (rules) => rules[1].oneOf[0])).toEqual(['babel', PATCH_FILES.sectionPageMap, 'nextra/loader'])
  })

  test("names the patch that cannot find Nextra's rules", () => {
    const withoutNextra = (): BundlerConfig => ({ ...nextraConfig(), module: { rules: [] } })
    expect(() => applyPatches(withoutNextra(), { bundler: 'rspack', isServer: true, dev: false, context: '/site', sectionPageMap })).toThrow(/patches\.pagePath: no rule uses nextra\/loader/)
    expect(() => applyPatches(withoutNextra(), { bundler: 'webpack', isServer: false, dev: false, context: '/site', sectionPageMap })).toThrow(/patches\.sectionPageMap/)
  })
})
