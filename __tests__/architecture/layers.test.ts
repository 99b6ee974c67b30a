/**
 * @jest-environment node
 *
 * Data flows one way: the build (pipeline/) reads the runtime's contracts, never the other way.
 * What a browser, the edge or the AI tools' server runs must not depend on the build's folder:
 * a step's change could otherwise ship in the authorizer, and the build's Node-only code in a
 * bundle. Contracts both sides use live in lib/ (the planner in lib/access/, the props files in
 * lib/render/, the page catalogs in lib/aiTools/).
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

function runtimeFiles(): string[] {
  return RUNTIME.flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => /\.(tsx?|mjs|cjs|js)$/.test(file) && !file.split(path.sep).includes('dist') && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(dir, file))
  )
}

test('no runtime file (pages/, lib/, components/, mcp/, edge/) imports pipeline/', () => {
  const files = runtimeFiles()
  expect(files.length).toBeGreaterThan(100)
  const offending = files.flatMap((file) =>
    specifiers(fs.readFileSync(path.join(root, file), 'utf8'))
      .filter((specifier) => specifier.startsWith('.') && path.relative(root, path.resolve(root, path.dirname(file), specifier)).split(path.sep)[0] === 'pipeline')
      .map((specifier) => `${file}: ${specifier}`)
  )
  expect(offending).toEqual([])
})

test('the check sees an import of the build, however it is written', () => {
  expect(specifiers("import { x } from '../pipeline/a'\nconst y = require('../../pipeline/b')\nawait import('../pipeline/c')\nimport '../pipeline/d'")).toEqual(['../pipeline/a', '../pipeline/c', '../../pipeline/b', '../pipeline/d'])
})
