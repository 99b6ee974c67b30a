/**
 * @jest-environment node
 *
 * Rebuilds reuse the bundler's persistent cache (next.config.ts). What a reader sees after each
 * rebuild must be what a clean build of the same pages gives: an edited page shows its edit, an
 * added page appears in its section's sidebar, a removed page is gone.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { copyProject } from '../../scripts/audit/copyProject'

jest.setTimeout(300_000)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-'))
const page = (route: string) => fs.readFileSync(path.join(dir, 'out', `${route}.html`), 'utf8')

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
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('an edited page, an added page and a removed page are all current after each cached rebuild', async () => {
  const added = path.join(dir, 'content/docs/leads/added-page.mdx')
  fs.writeFileSync(added, '---\ntitle: Added page\n---\n\n# Added page\n\nFirst version.\n')
  await build()
  expect(page('/docs/leads/intro')).toContain('href="/docs/leads/added-page"')
  expect(page('/docs/leads/added-page')).toContain('First version.')

  fs.writeFileSync(added, '---\ntitle: Added page, renamed\n---\n\n# Added page\n\nSecond version.\n')
  await build()
  expect(page('/docs/leads/added-page')).toContain('Second version.')
  expect(page('/docs/leads/added-page')).not.toContain('First version.')
  expect(page('/docs/leads/intro')).toContain('Added page, renamed')

  fs.rmSync(added)
  await build()
  expect(fs.existsSync(path.join(dir, 'out/docs/leads/added-page.html'))).toBe(false)
  expect(page('/docs/leads/intro')).not.toContain('added-page')
})
