/**
 * @jest-environment node
 *
 * The build ID is a hash of the build's inputs (pipeline/buildId.ts): the same sources,
 * environment and versions give the same ID, so unchanged files keep their names and bytes; any
 * change of them gives another. Only what the build reads: a stray file or a public/ file (copied
 * into out/, changing only itself) keeps the ID, so a deploy re-uploads only what changed.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'
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

test('a log a CI step leaves beside package.json keeps the ID: every file of out/ keeps its name and bytes', () => {
  const base = idOf()
  for (const file of ['build.log', 'deploy.log', 'npm-debug.log', 'deploy-output.txt']) write(file, 'uploaded 222 of 511 objects\n')
  expect(idOf()).toBe(base)
})

test('an image added under a hidden section of public/ keeps the ID, so no file a reader can fetch changes with it', () => {
  write('public/docs/internal/images/flow.svg', '<svg/>')
  const base = idOf()
  write('public/docs/internal/images/new-diagram.svg', '<svg>secret</svg>')
  write('public/docs/internal/images/flow.svg', '<svg>redrawn</svg>')
  expect(idOf()).toBe(base)
})

test('any file added to or changed under public/ keeps the ID: Next copies it into out/ as it is, it is not bundled', () => {
  write('public/logo.svg', '<svg/>')
  const base = idOf()
  write('public/logo.svg', '<svg>new logo</svg>')
  write('public/favicon.ico', 'icon')
  write('public/robots.txt', 'User-agent: *\n')
  expect(idOf()).toBe(base)
})

/** The project as the build reads it: one file in each folder the bundle compiles from, each config file, and what it does not read. */
const INPUTS = ['access.config.ts', 'components/SiteLogo.tsx', 'lib/siteName.ts', 'next.config.ts', 'package-lock.json', 'package.json', 'pages/_app.tsx', 'patches/index.ts', 'pipeline/buildId.ts', 'pipeline/render/renderWithNext.cjs', 'styles/site.css', 'theme.config.tsx', 'theme.tsx', 'tsconfig.json']
const NOT_INPUTS = ['public/favicon.svg', 'public/docs/leads/images/quote-flow.svg', 'content/docs/leads/intro.mdx', 'edge/lambda.ts', 'mcp/lambda.ts', 'scripts/deploy/deploySite.ts', 'bench/run.ts', 'README.md', '.ci/buildspec.yml', 'jest.config.js', '.gitignore', 'build.log']

test('the inputs are the folders the bundle compiles from and the config files, and nothing else', () => {
  for (const file of [...INPUTS, ...NOT_INPUTS]) write(file, `// ${file}\n`)
  expect(buildInputFiles(root)).toEqual(INPUTS)
})

test.each(['components/SiteLogo.tsx', 'lib/siteName.ts', 'pages/_app.tsx', 'patches/index.ts', 'styles/site.css', 'pipeline/render/renderWithNext.cjs', 'package-lock.json', 'package.json', 'tsconfig.json', 'theme.config.tsx', 'access.config.ts', '.env.production'])('an edit of %s, which the build reads, gives another ID', (file) => {
  for (const input of INPUTS) write(input, `// ${input}\n`)
  const base = idOf()
  write(file, `// ${file}, edited\n`)
  expect(idOf()).not.toBe(base)
})

test('a file added to a folder the bundle compiles from gives another ID', () => {
  write('components/SiteLogo.tsx', 'x')
  const base = idOf()
  write('components/NewBanner.tsx', 'export {}\n')
  expect(idOf()).not.toBe(base)
})

test('a symbolic link among the inputs is refused, not followed or hashed by where it points', () => {
  write('elsewhere/Shared.tsx', 'export {}\n')
  fs.mkdirSync(path.join(root, 'components'))
  fs.symlinkSync(path.join(root, 'elsewhere/Shared.tsx'), path.join(root, 'components/Shared.tsx'))
  expect(() => idOf()).toThrow('build ID: components/Shared.tsx is a symbolic link')
  fs.rmSync(path.join(root, 'components/Shared.tsx'))
  // A link outside the inputs (node_modules in a worktree, a log) is not read.
  fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'node_modules'))
  fs.symlinkSync(path.join(root, 'elsewhere/Shared.tsx'), path.join(root, 'latest.log'))
  expect(() => idOf()).not.toThrow()
})

/** Every file of the project that `from` reaches by import, require or CSS @import (not node_modules). */
function importedFiles(project: string, from: string[]): Set<string> {
  const options: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, resolveJsonModule: true, allowJs: true, jsx: ts.JsxEmit.Preserve }
  const specifier = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]|require(?:\.resolve)?\(\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]|@import\s+['"](\.[^'"]+)['"]/g
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    if (!/\.(ts|tsx|cjs|mjs|js|css)$/.test(file)) return
    for (const match of fs.readFileSync(file, 'utf8').matchAll(specifier)) {
      const spec = match.slice(1).find(Boolean)!
      const resolved = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule?.resolvedFileName ?? path.resolve(path.dirname(file), spec)
      if (fs.existsSync(resolved) && fs.statSync(resolved).isFile() && !resolved.includes('node_modules')) visit(resolved)
    }
  }
  from.forEach((file) => visit(path.join(project, file)))
  return new Set([...seen].map((file) => path.relative(project, file).split(path.sep).join('/')))
}

test("every file of this project that the site's bundles or next.config.ts import is an input (a missing one would give two sites one ID)", () => {
  const project = process.cwd()
  const entries = [...fs.readdirSync(path.join(project, 'pages')).map((name) => `pages/${name}`), 'next.config.ts', 'theme.config.tsx', 'theme.tsx', 'styles/site.css']
  const inputs = new Set(buildInputFiles(project))
  const reached = [...importedFiles(project, entries)]
  expect(reached.length).toBeGreaterThan(50)
  expect(reached.filter((file) => !inputs.has(file))).toEqual([])
})

test("the project's ID is 20 hex digits, and the same when asked again", () => {
  expect(siteBuildId(process.cwd())).toMatch(/^[0-9a-f]{20}$/)
  expect(siteBuildId(process.cwd())).toBe(siteBuildId(process.cwd()))
})
