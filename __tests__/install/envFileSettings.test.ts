/**
 * @jest-environment node
 *
 * A DOCS_ setting in a `.env` file would reach Next's processes of a build (which load those files)
 * and not the build's own: the build ID differed between them and the build failed naming neither,
 * leaving an out/ half for production. `npm run build` and `npm run dev` refuse one, naming it.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { docsSettingsInEnvFiles } from '../../scripts/envFileSettings.cjs'

const root = path.resolve(__dirname, '../..')
let work: string
beforeEach(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), 'env-files-'))))
afterEach(() => fs.rmSync(work, { recursive: true, force: true }))

test('the DOCS_ settings of every .env file Next reads are found, each with its file; other settings and files are not', () => {
  fs.writeFileSync(path.join(work, '.env'), '# a comment\nDOCS_SOURCE_URL=https://example.com\nOTHER=1\n')
  fs.writeFileSync(path.join(work, '.env.production.local'), 'export DOCS_AUTH_MODE=production\n  DOCS_COGNITO_CLIENT_ID = abc\n')
  fs.writeFileSync(path.join(work, '.env.example'), 'DOCS_AUTH_MODE=production\n')
  expect(docsSettingsInEnvFiles(work)).toEqual([
    { file: '.env', name: 'DOCS_SOURCE_URL' },
    { file: '.env.production.local', name: 'DOCS_AUTH_MODE' },
    { file: '.env.production.local', name: 'DOCS_COGNITO_CLIENT_ID' },
  ])
})

test('npm run build refuses one before it builds anything, naming the file, the setting and the fix', () => {
  // The build's starter as it is, in a copy of the project's layout with a .env.local.
  for (const file of ['pipeline/steps/build.cjs', 'scripts/endWithParent.cjs', 'scripts/envFileSettings.cjs']) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true })
    fs.copyFileSync(path.join(root, file), path.join(work, file))
  }
  fs.writeFileSync(path.join(work, '.env.local'), 'DOCS_AUTH_MODE=production\n')
  const run = spawnSync(process.execPath, [path.join(work, 'pipeline/steps/build.cjs')], { cwd: work, encoding: 'utf8', timeout: 30_000 })
  expect(run.status).toBe(1)
  expect(run.stderr).toMatch(/^build: \.env\.local sets DOCS_AUTH_MODE\. Set DOCS_ settings in the environment/)
  expect(fs.existsSync(path.join(work, '.cache'))).toBe(false)
})
