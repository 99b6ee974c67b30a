/** @jest-environment node */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access'
import { readAudiencesFile, RulesChangedError, writeAudiencesFile } from '../../pipeline/steps/audiencesFile'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audiences-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const file = path.join(dir, 'audiences.json')
const audiences = [{ id: 'leads', governedBy: '/docs/leads/intro', sections: [{ id: 'leads', entry: '/docs/leads/intro' }], search: '/docs/leads/_pagefind/', llms: '/docs/leads/llms.txt', catalog: '/docs/leads/pages.json', title: 'Leads API' }]

test('an authorizer is built over a build only with the path rules that build was made with; a list change needs no build', () => {
  writeAudiencesFile(file, compileAccess(shipped, {}), audiences)
  expect(readAudiencesFile(file, compileAccess(shipped, {}))).toEqual(audiences)
  expect(readAudiencesFile(file, compileAccess(shipped, { DOCS_LEADS_USERS: 'leads2' }))).toEqual(audiences)
  const finer = compileAccess({ ...shipped, rules: [{ path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'fullAccessUsers' }, ...shipped.rules] }, {})
  expect(() => readAudiencesFile(file, finer)).toThrow(RulesChangedError)
  expect(() => readAudiencesFile(file, finer)).toThrow(/path rules in access.config.ts .* differ .*npm run build:prod/)
  expect(() => readAudiencesFile(file, compileAccess(shipped, { DOCS_PROTECT: 'false' }))).toThrow(RulesChangedError)
})

test('a missing file names the build to run', () => {
  expect(() => readAudiencesFile(path.join(dir, 'none.json'))).toThrow(/none\.json is missing; run the site build first/)
})
