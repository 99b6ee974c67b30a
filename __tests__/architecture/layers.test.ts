/**
 * @jest-environment node
 *
 * Data flows one way: the build (pipeline/) reads the runtime's contracts, never the other way.
 * What a browser, the edge or the AI tools' server runs must not depend on the build's folder:
 * a step's change could otherwise ship in the authorizer, and the build's Node-only code in a
 * bundle. Contracts both sides use live in lib/ (the planner in lib/access/, the props files in
 * lib/render/, the page catalogs in lib/aiTools/).
 *
 * The patches to dependencies (patches/) are loaded by next.config.ts and, some of them, by the
 * browser (pages/login.tsx imports patches/signIn/lazyAuth.ts), so the runtime may import them;
 * they in turn import nothing of the build, or the runtime would reach it through them.
 */
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')
const RUNTIME = ['pages', 'lib', 'components', 'mcp', 'edge']

/** Every module specifier a file imports, requires or loads dynamically. */
function specifiers(source: string): string[] {
  const found: string[] = []
  for (const pattern of [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /^\s*import\s+['"]([^'"]+)['"]/gm]) {
    for (const match of source.matchAll(pattern)) found.push(match[1])
  }
  return found
}

function sourceFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => /\.(tsx?|mjs|cjs|js)$/.test(file) && !file.split(path.sep).includes('dist') && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(dir, file))
  )
}

/** Each import of pipeline/ by one of `files`, as `file: specifier`. */
function importsOfPipeline(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    specifiers(fs.readFileSync(path.join(root, file), 'utf8'))
      .filter((specifier) => specifier.startsWith('.') && path.relative(root, path.resolve(root, path.dirname(file), specifier)).split(path.sep)[0] === 'pipeline')
      .map((specifier) => `${file}: ${specifier}`)
  )
}

test('no runtime file (pages/, lib/, components/, mcp/, edge/) imports pipeline/', () => {
  const files = sourceFiles(RUNTIME)
  expect(files.length).toBeGreaterThan(100)
  expect(importsOfPipeline(files)).toEqual([])
})

test('no patch (patches/), which next.config.ts and the browser load, imports pipeline/', () => {
  const files = sourceFiles(['patches'])
  expect(files.length).toBeGreaterThan(15)
  expect(importsOfPipeline(files)).toEqual([])
})

test('the check sees an import of the build, however it is written', () => {
  expect(specifiers("import { x } from '../pipeline/a'\nconst y = require('../../pipeline/b')\nawait import('../pipeline/c')\nimport '../pipeline/d'")).toEqual(['../pipeline/a', '../pipeline/c', '../../pipeline/b', '../pipeline/d'])
})

/** The modules of pipeline/ that `file` imports, as project paths (type-only imports included: a circle of types is a circle of design). */
function pipelineImports(file: string): string[] {
  return specifiers(fs.readFileSync(path.join(root, file), 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(root, path.resolve(root, path.dirname(file), specifier)))
    .filter((target) => target.split(path.sep)[0] === 'pipeline')
    .flatMap((target) => ['', '.ts', '.mjs', '.cjs', '/index.ts'].map((extension) => target + extension).filter((candidate) => fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()).slice(0, 1))
}

/** The first import circle among `files`, as the path around it, or null. */
function firstCircle(files: readonly string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, trail: string[]): string[] | null => {
    if (state.get(file) === 'done') return null
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file]
    state.set(file, 'open')
    for (const next of pipelineImports(file)) {
      const circle = visit(next, [...trail, file])
      if (circle) return circle
    }
    state.set(file, 'done')
    return null
  }
  for (const file of files) {
    const circle = visit(file, [])
    if (circle) return circle
  }
  return null
}

test('pipeline/ has no import circle: each module can be read and tested below the ones that use it', () => {
  const files = sourceFiles(['pipeline'])
  expect(files.length).toBeGreaterThan(40)
  expect(firstCircle(files)).toBeNull()
})

test("every path under .cache/ is spelt once, in pipeline/steps/paths.ts (the props', which the docs route reads, in lib/render/propsFiles.ts; the build's bundle in pipeline/steps/build.cjs and the finished build's record in scripts/lastBuild.mjs, which load before any TypeScript)", () => {
  const files = sourceFiles(['pipeline', 'scripts', 'lib', 'mcp', 'edge', 'bench', 'patches', 'components', 'pages'])
  const spelt = files.filter((file) => !['pipeline/steps/paths.ts', 'lib/render/propsFiles.ts', 'pipeline/steps/build.cjs', 'scripts/lastBuild.mjs'].includes(file)).flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/['"`]\.cache\//.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line) ? [`${file}:${index + 1}`] : []))
  )
  expect(spelt).toEqual([])
})

/**
 * The path formats that the runtime, the edge, the deploy and the build share, each as the
 * spellings that would define it a second time. lib/pathFormats.ts is where each is spelt. A test
 * or a benchmark may spell a URL out (it asserts or visits what a reader sees), so __tests__/,
 * e2e/ and bench/ are not scanned.
 */
const PATH_FORMATS: ReadonlyArray<readonly [string, RegExp]> = [
  ['build files (/_next/static/)', /_next\\?\/static\b/],
  ['page data files (/_next/data/)', /_next\\?\/data\b/],
  ['the sign-in URL (/login?next=)', /login\\?\?next=/],
  ['the no-access URL (/unauthorized?from=)', /unauthorized\\?\?from=/],
  ['the sign-in and no-access pages (/login, /unauthorized)', /['"`]\/(login|unauthorized)['"`#]/],
  ['the render-routes variable', /DOCS_RENDER_ROUTES/],
  // A page's Markdown is `<route>.md`; the Markdown step's cache names a body by its digest, not a route.
  ['page Markdown (<route>.md)', /\$\{(?![^}]*\bdigest\})[^}]*\}\.md\b|\\\.md\$/],
  // A name, in a string or a regular expression (`/(^|\/)(llms\.txt)$/`).
  ['llms files (llms.txt, llms-full…txt)', /(?:['"`/|(]|\^)llms(-full(-\$\{[^}]*\}|-\d+)?)?\\?\.txt(?![\w.-])/],
  ['page catalogs (pages.json)', /(?:['"`/|(]|\^)pages\\?\.json(?![\w.-])/],
  ['search folders (_pagefind)', /_pagefind/],
  ['search entry files (pagefind-entry.json)', /pagefind-entry\\?\.json/],
]
const PATH_FORMATS_MODULE = 'lib/pathFormats.ts'

/** Each code line (comments aside) of `files` that spells a path format, as `file:line: format`. */
function pathFormatSpellings(files: readonly string[], read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, index) => (/^\s*(\*|\/\/|\/\*)/.test(line) ? [] : PATH_FORMATS.filter(([, pattern]) => pattern.test(line)).map(([name]) => `${file}:${index + 1}: ${name}`)))
  )
}

test(`every path format the runtime, edge, deploy and build share is spelt once, in ${PATH_FORMATS_MODULE}`, () => {
  const files = sourceFiles(['pages', 'lib', 'edge', 'mcp', 'components', 'pipeline', 'scripts', 'patches'])
  expect(files).toContain(PATH_FORMATS_MODULE)
  expect(pathFormatSpellings(files.filter((file) => file !== PATH_FORMATS_MODULE))).toEqual([])
})

test('the path-format check sees each format however it is spelt, and not a body named by its digest', () => {
  const lines = [
    "export const HASHED_ASSET_PREFIX = '/_next/static/'",
    'const PAGE_CHUNK = /^\\/_next\\/static\\/chunks\\/pages(\\/.*?)-[0-9a-f]{8,}\\.js$/',
    "const DATA_FILE = new RegExp(`^/_next/data/[^/]+(/.+)\\\\.json$`)",
    'window.location.assign(`/login?next=${encodeURIComponent(page)}`)',
    'router.replace(`/unauthorized?from=${encodeURIComponent(router.asPath)}`)',
    '{pathname !== \'/login\' && <SignInServiceNotice variant="banner" />}',
    '<PageLink href="/unauthorized">',
    "const only = process.env.DOCS_RENDER_ROUTES",
    'const markdownUrl = `${pathname}.md`',
    "const route = normalisePath(pathname.replace(/\\.md$/i, ''))",
    "export const ROOT_LLMS_PATH = '/llms.txt'",
    'const name = `llms-full-${part + 1}.txt`',
    'basePath: `${audience.base}_pagefind/`,',
    "{ name: 'indexes', test: (key: string) => /(^|\\/)(pagefind-entry\\.json|pages\\.json|llms\\.txt)$/.test(key) },",
    "export const CATALOG_FILE = 'pages.json'",
    // Not a path format: a cache file named by digest, a comment, prose that names a file.
    'const bodyFile = (root: string, digest: string) => path.join(root, BODY_CACHE_DIR, `${digest}.md`)',
    'const kept = new Set(pages.flatMap((page) => (page.reading ? [`${page.reading.digest}.md`] : [])))',
    ' * (`/_next/static/<build>/_routes/<audience id>.js`)',
    "description: 'the llms.txt files of their docs'",
    'const placedFile = (cacheDir: string) => `${cacheDir}-pages.json`',
  ]
  expect(pathFormatSpellings(['a.ts'], () => lines.join('\n')).map((found) => found.replace(/^a\.ts:\d+: /, ''))).toEqual([
    'build files (/_next/static/)',
    'build files (/_next/static/)',
    'page data files (/_next/data/)',
    'the sign-in URL (/login?next=)',
    'the no-access URL (/unauthorized?from=)',
    'the sign-in and no-access pages (/login, /unauthorized)',
    'the sign-in and no-access pages (/login, /unauthorized)',
    'the render-routes variable',
    'page Markdown (<route>.md)',
    'page Markdown (<route>.md)',
    'llms files (llms.txt, llms-full…txt)',
    'llms files (llms.txt, llms-full…txt)',
    'search folders (_pagefind)',
    'llms files (llms.txt, llms-full…txt)',
    'page catalogs (pages.json)',
    'search entry files (pagefind-entry.json)',
    'page catalogs (pages.json)',
  ])
})
