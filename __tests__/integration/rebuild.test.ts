/**
 * @jest-environment node
 *
 * Rebuilds reuse the bundler's persistent cache (next.config.ts). What a reader sees after each
 * rebuild must be what a clean build of the same pages gives: an edited page shows its edit, an
 * added page appears in its section's sidebar, a removed page is gone.
 *
 * And two clean builds of the same sources write the same files, byte for byte (the build ID is a
 * hash of the inputs, pipeline/buildId.ts), so a deploy uploads only what changed.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { copyProject } from '../../scripts/audit/copyProject'

jest.setTimeout(300_000)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-'))
const page = (route: string) => fs.readFileSync(path.join(dir, 'out', `${route}.html`), 'utf8')

const buildId = () => fs.readFileSync(path.join(dir, '.next/BUILD_ID'), 'utf8').trim()

/** Every file the build ships, by path relative to the copy, with its sha256. */
function shippedFiles(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const folder of ['out', 'edge/dist', 'mcp/dist']) {
    for (const entry of fs.readdirSync(path.join(dir, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const file = path.join(entry.parentPath, entry.name)
      files[path.relative(dir, file)] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
    }
  }
  return files
}
let cleanBuild: { id: string; files: Record<string, string> }

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'pipeline/steps/buildSite.ts'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed in ${dir}:\n${stderr}`))))
  })
}

beforeAll(async () => {
  copyProject(process.cwd(), dir)
  await build()
  cleanBuild = { id: buildId(), files: shippedFiles() }
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('an edited page, an added page and a removed page are all current after each cached rebuild', async () => {
  const added = path.join(dir, 'content/docs/leads/added-page.mdx')
  fs.writeFileSync(added, '---\ntitle: Added page\n---\n\n# Added page\n\nFirst version.\n')
  await build()
  expect(page('/docs/leads/intro')).toContain('href="/docs/leads/added-page"')
  expect(page('/docs/leads/added-page')).toContain('First version.')
  const firstId = buildId()

  fs.writeFileSync(added, '---\ntitle: Added page, renamed\n---\n\n# Added page\n\nSecond version.\n')
  await build()
  expect(page('/docs/leads/added-page')).toContain('Second version.')
  expect(page('/docs/leads/added-page')).not.toContain('First version.')
  expect(page('/docs/leads/intro')).toContain('Added page, renamed')
  // Pages are data: the build ID, and so every other section's pages and data, stay as they were.
  expect(new Set([cleanBuild.id, firstId, buildId()]).size).toBe(1)
  const now = shippedFiles()
  const otherSections = Object.keys(cleanBuild.files).filter((file) => /^out\/(docs\/internal|docs\/support-twilio|_next\/data\/[^/]+\/docs\/(internal|support-twilio))\//.test(file))
  expect(otherSections.length).toBeGreaterThan(50)
  expect(otherSections.filter((file) => now[file] !== cleanBuild.files[file])).toEqual([])

  fs.rmSync(added)
  await build()
  expect(fs.existsSync(path.join(dir, 'out/docs/leads/added-page.html'))).toBe(false)
  expect(page('/docs/leads/intro')).not.toContain('added-page')
})

test('a clean build of the same sources writes the same files, byte for byte, under the same build ID', async () => {
  fs.rmSync(path.join(dir, 'content/docs/leads/added-page.mdx'), { force: true })
  fs.rmSync(path.join(dir, '.next'), { recursive: true, force: true })
  fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true })
  await build()
  expect(buildId()).toBe(cleanBuild.id)
  expect(shippedFiles()).toEqual(cleanBuild.files)
})
