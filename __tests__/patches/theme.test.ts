/**
 * @jest-environment node
 *
 * Each patch to Nextra and its docs theme (patches/theme/) against the installed packages: an
 * upgrade that changes what a patch relies on fails the test that names the patch.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PATCH_FILES } from '../../patches'
import { HEADLESS_UI_USERS } from '../../patches/theme'

const nextraDir = path.dirname(require.resolve('nextra/package.json'))
const themeDir = path.join(process.cwd(), 'node_modules/nextra-theme-docs')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const presorted = require(PATCH_FILES.presortedPageMap) as ((source: string) => string) & { FROM: string }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const breakpoint = require(PATCH_FILES.mobileBreakpoint) as ((this: { resourcePath: string }, source: string) => string) & { MOBILE_MAX: number }

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

describe('readerLayout', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const readerLayout = require(PATCH_FILES.readerLayout) as (source: string) => string
  const theme = () => fs.readFileSync(path.join(themeDir, 'dist/index.js'), 'utf8')

  test("the installed theme's table of contents follows the article, its menu button says whether the menu is open, and its landmarks are named", () => {
    const patched = readerLayout(theme())
    expect(patched).toContain('jsx26(Body, { children }),\n          tocEl\n')
    expect(patched).toContain('"aria-label": "Menu",\n          "aria-expanded": menu,\n')
    expect(patched).toContain('jsxs12("header", { className: "nextra-nav-container ')
    expect(patched).toContain('jsxs12("nav", { "aria-label": "Site", ')
    expect(patched).toContain('"aside",\n      {\n        "aria-label": "Sidebar",\n')
  })

  test('fails the build when the theme changes the layout it patches', () => {
    expect(() => readerLayout(theme().replace('          tocEl,\n', '          toc,\n'))).toThrow(/readerLayoutLoader: expected 1 × [\s\S]* found 0; the theme changed/)
  })
})
