/**
 * @jest-environment node
 *
 * The build ID is a hash of the build's inputs (pipeline/buildId.ts): the same sources,
 * environment and versions give the same ID, so unchanged files keep their names and bytes; any
 * change of them gives another.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildIdFor, buildInputFiles, siteBuildId, type BuildEnv } from '../../pipeline/buildId'

let root: string
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  fs.writeFileSync(path.join(root, file), text)
}
const versions = { node: 'v20.0.0', next: '15.5.0' }
const idOf = (env: BuildEnv = {}, v = versions) => buildIdFor({ root, env, versions: v })

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-id-'))
  write('content/docs/leads/intro.mdx', '# Intro\n')
  write('next.config.ts', 'export default {}\n')
  write('package-lock.json', '{}\n')
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

test('the same sources, environment and versions give the same ID, whatever the clock or the file times', () => {
  const first = idOf({ DOCS_AUTH_MODE: 'local' })
  const later = new Date(Date.now() + 3_600_000)
  fs.utimesSync(path.join(root, 'next.config.ts'), later, later)
  expect(idOf({ DOCS_AUTH_MODE: 'local' })).toBe(first)
  expect(first).toMatch(/^[0-9a-f]{20}$/)
})

test('an edited file of the site gives another ID; an edited, added or removed page does not (pages are data, not code)', () => {
  const base = idOf()
  write('next.config.ts', 'export default { edited: true }\n')
  const edited = idOf()
  expect(edited).not.toBe(base)
  write('content/docs/leads/intro.mdx', '# Intro, edited\n')
  write('content/docs/leads/added.mdx', '# Added\n')
  fs.renameSync(path.join(root, 'content/docs/leads/intro.mdx'), path.join(root, 'content/docs/leads/moved.mdx'))
  expect(idOf()).toBe(edited)
})

test('a DOCS_ or NEXT_PUBLIC_ variable, or another Node or Next, gives another ID; other variables and the list of pages to render do not', () => {
  const base = idOf({ DOCS_AUTH_MODE: 'local' })
  expect(idOf({ DOCS_AUTH_MODE: 'production' })).not.toBe(base)
  expect(idOf({ DOCS_AUTH_MODE: 'local', DOCS_LEADS_USERS: 'a@example.com' })).not.toBe(base)
  expect(idOf({ DOCS_AUTH_MODE: 'local', NEXT_PUBLIC_X: '1' })).not.toBe(base)
  expect(idOf({ DOCS_AUTH_MODE: 'local' }, { ...versions, node: 'v22.0.0' })).not.toBe(base)
  expect(idOf({ DOCS_AUTH_MODE: 'local' }, { ...versions, next: '15.5.1' })).not.toBe(base)
  expect(idOf({ DOCS_AUTH_MODE: 'local', HOME: '/elsewhere', DOCS_RENDER_ROUTES: '/x/.cache/render-routes.json' })).toBe(base)
})

test('build output, caches, installed packages, tests and guides are not inputs', () => {
  const base = idOf()
  for (const file of ['out/index.html', '.next/BUILD_ID', '.cache/mdx/x.json', 'node_modules/x/index.js', 'edge/dist/index.js', 'mcp/dist/index.js', 'tsconfig.tsbuildinfo', 'next-env.d.ts', '__tests__/x.test.ts', 'e2e/x.test.ts', 'docs/deploy.md', 'infra/bin/app.ts']) write(file, 'x')
  expect(idOf()).toBe(base)
  expect(buildInputFiles(root)).toEqual(['next.config.ts', 'package-lock.json'])
})

test('the project ID takes a few hundred milliseconds at most', () => {
  const started = performance.now()
  expect(siteBuildId(process.cwd())).toMatch(/^[0-9a-f]{20}$/)
  expect(performance.now() - started).toBeLessThan(1000)
})
