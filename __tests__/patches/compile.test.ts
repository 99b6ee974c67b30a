/**
 * @jest-environment node
 *
 * The compile's patch (patches/compile/visitWithoutNames.mjs), applied as the compiler is bundled
 * (pipeline/compile/compilerBundle.mjs): the tree walker of the MDX plugins walks as before and
 * names no function after a node; the patch refuses a walker whose statement changed. ES modules,
 * so each check runs in a plain Node process.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')
const patch = path.join(root, 'patches/compile/visitWithoutNames.mjs')
const bundler = path.join(root, 'pipeline/compile/compilerBundle.mjs')
const esm = (script: string) => execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

/** Walks a small tree with the walker `from` (a module specifier) and prints the visited types, and the names of the walker's functions on the stack at each visit. */
const walk = (from: string) => `
  const { visitParents } = await import(${JSON.stringify(from)})
  const tree = { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: 'a' }] }] }
  const types = [], names = []
  visitParents(tree, (node) => { types.push(node.type); names.push(...(new Error().stack.replace(/\\u001b\\[\\d+m/g, '').match(/node \\([a-z]+\\)/g) ?? [])) })
  console.log(JSON.stringify({ types, names }))
`

test('bundled, the walker visits the same nodes and names no function after one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walker-bundle-'))
  try {
    const bundled = path.join(dir, 'walker.mjs')
    esm(`import { bundle } from ${JSON.stringify('file://' + bundler)}; await bundle("export { visitParents } from 'unist-util-visit-parents'", ${JSON.stringify(bundled)}, ${JSON.stringify(root)})`)
    const before = JSON.parse(esm(walk('unist-util-visit-parents')))
    const after = JSON.parse(esm(walk('file://' + bundled)))
    // Without the patch, the stack names the walker's functions after the nodes (what the patch drops).
    expect(before.names).toContain('node (paragraph)')
    expect(after).toEqual({ types: before.types, names: [] })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("the compiler's bundle is made when missing, and made again when it does not load or loads without the compiler", () => {
  // In the project, as .cache/compiler/ is: the packages it leaves out (Shiki) resolve from there.
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true })
  const dir = fs.mkdtempSync(path.join(root, '.cache', 'compiler-bundle-'))
  try {
    const load = `import { loadCompiler } from ${JSON.stringify('file://' + bundler)}; const { compileMdx } = await loadCompiler(${JSON.stringify(dir)}, 'k1', ${JSON.stringify(root)}); console.log(typeof compileMdx)`
    expect(esm(load).trim()).toBe('function')
    const file = path.join(dir, 'nextra-compile-k1.mjs')
    expect(fs.readFileSync(file, 'utf8')).toContain('compileMdx')
    fs.writeFileSync(file, 'export const compileMdx = ;')
    expect(esm(load).trim()).toBe('function')
    expect(fs.readdirSync(dir)).toEqual(['nextra-compile-k1.mjs'])
    // A module still, but not the compiler (damaged to a value that parses).
    fs.writeFileSync(file, 'null')
    expect(esm(load).trim()).toBe('function')
    expect(fs.readFileSync(file, 'utf8')).toContain('compileMdx')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a bundle with no walker to patch fails, naming the patch', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walker-bundle-'))
  try {
    const script = `import { bundle } from ${JSON.stringify('file://' + bundler)}; try { await bundle("export const x = 1", ${JSON.stringify(path.join(dir, 'x.mjs'))}, ${JSON.stringify(root)}); console.log('bundled') } catch (error) { console.log(error.message) }`
    expect(esm(script)).toMatch(/visitWithoutNames\.mjs found no unist-util-visit-parents\/lib\/index\.js to patch/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the patch refuses a walker whose naming statement changed, naming the dependency', () => {
  const script = `
    import { withoutNames } from ${JSON.stringify('file://' + patch)}
    try { withoutNames('function factory() { Object.defineProperty(visit, "name", {}) }', 'lib/index.js'); console.log('applied') } catch (error) { console.log(error.message) }
  `
  expect(esm(script)).toMatch(/expected 1 × [\s\S]* in lib\/index\.js, found 0; unist-util-visit-parents changed/)
})

test('applied twice, the walker is patched once', () => {
  const script = `
    import { readFileSync } from 'node:fs'
    import { withoutNames, MARKER } from ${JSON.stringify('file://' + patch)}
    const source = readFileSync('node_modules/unist-util-visit-parents/lib/index.js', 'utf8')
    const once = withoutNames(source, 'lib/index.js')
    console.log(JSON.stringify([once === withoutNames(once, 'lib/index.js'), once.split(MARKER).length - 1, once.includes("defineProperty(visit, 'name'")]))
  `
  expect(JSON.parse(esm(script))).toEqual([true, 1, false])
})
