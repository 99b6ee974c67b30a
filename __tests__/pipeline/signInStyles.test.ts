/**
 * @jest-environment node
 *
 * The sign-in page loads Amplify UI's styles component by component (components/signInStyles.ts).
 * These tests read the installed Authenticator, so an upgrade that gives it a new component, or
 * reorders the library's stylesheet, fails here by name instead of drawing an unstyled form.
 */
import fs from 'node:fs'
import path from 'node:path'

const uiReact = path.join(__dirname, '../../node_modules/@aws-amplify/ui-react')
const stylesDir = path.join(uiReact, 'dist/styles')
const imported = [...fs.readFileSync(path.join(__dirname, '../../components/signInStyles.ts'), 'utf8').matchAll(/^import '@aws-amplify\/ui-react\/styles\/(.+)\.css'$/gm)].map((match) => match[1])

/** Every primitive (dist/esm/primitives/<Name>/) the Authenticator's modules reach, transitively. */
function primitivesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>()
  const primitives = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const primitive = /[\\/]primitives[\\/]([A-Z]\w*)[\\/]/.exec(file)
    if (primitive) primitives.add(primitive[1])
    // Only imports that bind something: the library's bare `import '…'` lines are dropped by
    // tree-shaking (the package has no side effects), so they draw nothing.
    for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(/\bfrom\s*'(\.{1,2}\/[^']+)'/g)) visit(path.resolve(path.dirname(file), specifier))
  }
  visit(entry)
  return primitives
}

test('every Amplify UI primitive the Authenticator draws with has its styles imported', () => {
  const reached = primitivesReachedFrom(path.join(uiReact, 'dist/esm/components/Authenticator/Authenticator.mjs'))
  expect(reached).toContain('PasswordField')
  const styled = [...reached]
    .map((name) => name[0].toLowerCase() + name.slice(1))
    .filter((name) => fs.existsSync(path.join(stylesDir, `${name}.css`)) && fs.statSync(path.join(stylesDir, `${name}.css`)).size > 0)
  const missing = styled.filter((name) => !imported.includes(name))
  expect(missing).toEqual([])
  for (const name of ['base', 'authenticator']) expect(imported).toContain(name)
})

test('the styles are imported in the order of the whole stylesheet, so equal rules resolve as they did', () => {
  // Compared without comments and spacing, which differ between the whole and the parts.
  const bare = (file: string) => fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, '')
  const whole = bare(path.join(stylesDir, '../styles.css'))
  const offsets = imported.map((name) => {
    const at = whole.indexOf(bare(path.join(stylesDir, `${name}.css`)))
    if (at < 0) throw new Error(`${name}.css is not part of styles.css any more`)
    return at
  })
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
})
