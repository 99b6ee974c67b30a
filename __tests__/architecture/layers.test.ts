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

test("every path under .cache/ is spelt once, in pipeline/steps/paths.ts (the props', which the docs route reads, in lib/render/propsFiles.ts)", () => {
  const files = sourceFiles(['pipeline', 'scripts', 'lib', 'mcp', 'edge', 'bench', 'patches', 'components', 'pages'])
  const spelt = files.filter((file) => !['pipeline/steps/paths.ts', 'lib/render/propsFiles.ts'].includes(file)).flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/['"`]\.cache\//.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line) ? [`${file}:${index + 1}`] : []))
  )
  expect(spelt).toEqual([])
})
