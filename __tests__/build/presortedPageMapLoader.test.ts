/** @jest-environment node */
import fs from 'node:fs'
import path from 'node:path'

const loader = require('../../build/presortedPageMapLoader.cjs') as ((source: string) => string) & { FROM: string }
const normalizePages = fs.readFileSync(path.join(path.dirname(require.resolve('nextra/package.json')), 'dist/client/normalize-pages.js'), 'utf8')

describe('presortedPageMapLoader', () => {
  test("turns the installed Nextra's name comparison into keeping the build-time order", () => {
    const patched = loader(normalizePages)
    expect(patched).not.toContain('localeCompare')
    expect(patched).toContain('return 0; /* presorted at build time')
  })

  test('fails the build when Nextra no longer compares names the way it did', () => {
    expect(() => loader(normalizePages.replace(loader.FROM, 'return a.name < b.name ? -1 : 1;'))).toThrow(/expected 1 × .* found 0; Nextra changed/)
  })
})
