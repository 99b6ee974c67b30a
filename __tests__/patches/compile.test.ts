/**
 * @jest-environment node
 *
 * The compile's patch (patches/compile/visitWithoutNames.mjs): with its hook registered, the tree
 * walker of the MDX plugins walks as before and names no function after a node; the hook refuses
 * a walker whose statement changed. ES modules, so each check runs in a plain Node process.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')
const patch = path.join(root, 'patches/compile/visitWithoutNames.mjs')
const esm = (script: string) => execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

/** Walks a small tree and prints the visited types, and the names of the walker's functions on the stack at each visit. */
const walk = (register: boolean) => `
  ${register ? `import { register } from 'node:module'; register(${JSON.stringify('file://' + patch)})` : ''}
  const { visitParents } = await import('unist-util-visit-parents')
  const tree = { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: 'a' }] }] }
  const types = [], names = []
  visitParents(tree, (node) => { types.push(node.type); names.push(...(new Error().stack.replace(/\\u001b\\[\\d+m/g, '').match(/node \\([a-z]+\\)/g) ?? [])) })
  console.log(JSON.stringify({ types, names }))
`

test('with the hook, the walker visits the same nodes and names no function after one', () => {
  const before = JSON.parse(esm(walk(false)))
  const after = JSON.parse(esm(walk(true)))
  // Without the patch, the stack names the walker's functions after the nodes (what the patch drops).
  expect(before.names).toContain('node (paragraph)')
  expect(after).toEqual({ types: before.types, names: [] })
})

test('the hook refuses a walker whose naming statement changed, naming the dependency', () => {
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
