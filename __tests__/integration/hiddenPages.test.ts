/**
 * @jest-environment node
 *
 * What a reader can fetch says nothing of the pages they may not open: not their text, not their
 * number, not their place in `_meta`. Two builds of the site differ only in pages that the
 * internal section's reader may not open, beside pages of the same folder that they may open (the
 * guidelines folder given to full-access readers, but for two of its pages): a page is added, one
 * is moved in `_meta`, one is retitled and rewritten. For every role that may not open those
 * pages, every file the authorizer lets it fetch (lib/access, as the edge decides), its reader view
 * and its root llms.txt are the same in both builds, byte for byte.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import shipped from '../../access.config'
import { readerViewFor, readerViewSources, audiencesOf } from '../../edge/readerViewFor'
import { rootLlmsTxt } from '../../edge/rootLlmsTxt'
import { compileAccess } from '../../lib/access/compileAccess'
import { decideAccess } from '../../lib/access/decideAccess'
import { governingRoute, type AssetRoutes } from '../../lib/access/governingRoute'
import type { AccessConfig, AccessUser } from '../../lib/access/types'
import { readAudiencesFile } from '../../pipeline/steps/audiencesFile'
import { sitePaths } from '../../pipeline/steps/paths'
import { listFiles } from '../../pipeline/files'
import { applyAccessConfig, AUDIT_COGNITO_PORT, buildCopy } from '../../scripts/audit/buildAuditSite'
import { copyProject } from '../../scripts/audit/copyProject'
import { seededGroupsOf } from '../../scripts/cognito/seed'
import { maskChunkHashes } from './helpers/maskChunkHashes'

jest.setTimeout(900_000)

const GUIDELINES = 'content/docs/internal/guidelines'
/** The guidelines go to full-access readers, but for two pages that stay the internal section's. */
const CONFIG: AccessConfig = {
  ...shipped,
  rules: [
    { path: '/docs/internal/guidelines/environment-variables-management-guide', match: 'exact', require: 'internalUsers' },
    { path: '/docs/internal/guidelines/disaster-recovery-plan', match: 'exact', require: 'internalUsers' },
    { path: '/docs/internal/guidelines', match: 'prefix', require: 'fullAccessUsers' },
    ...shipped.rules,
  ],
}
const access = compileAccess(CONFIG, {})
/** Every seeded role but admin, who may open the changed pages; null is an anonymous visitor. */
const ROLES = [null, 'internal1', 'leads1', 'support1', 'supportlead', 'outsider'] as const

/** The second build's edits: only pages the roles above may not open. */
function editHiddenPages(dest: string): void {
  const meta = path.join(dest, GUIDELINES, '_meta.ts')
  const source = fs.readFileSync(meta, 'utf8')
  // Secrets management moves to the front, a page joins after the environment variables guide, and
  // the integration guide gets a new title.
  const secrets = "  'secrets-management': 'Secrets management',\n"
  if (!source.includes(secrets)) throw new Error(`${meta} changed: no secrets-management line to move`)
  const edited = source
    .replace(secrets, '')
    .replace('export default {\n', `export default {\n${secrets}`)
    .replace("'environment-variables-management-guide': 'Environment variables management',\n", "$&  'incident-response': 'Incident response',\n")
    .replace("'New data source integration guide'", "'Integrating a new data source'")
  if (!edited.includes('incident-response') || !edited.includes('Integrating a new')) throw new Error(`${meta} changed: the edits did not apply`)
  fs.writeFileSync(meta, edited)
  fs.writeFileSync(path.join(dest, GUIDELINES, 'incident-response.mdx'), '---\ntitle: Incident response\n---\n\n# Incident response\n\nWho to call, in which order.\n')
  const guide = path.join(dest, GUIDELINES, 'new-data-source_integration-guide.mdx')
  fs.writeFileSync(guide, fs.readFileSync(guide, 'utf8').replace(/^title: .*$/m, 'title: Integrating a new data source') + '\n\nOne more paragraph, and a longer page.\n')
}

const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'hidden-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'hidden-b-'))]

beforeAll(() => {
  dirs.forEach((dest, at) => {
    copyProject(process.cwd(), dest)
    if (at === 1) editHiddenPages(dest)
    applyAccessConfig(dest, CONFIG, {})
    buildCopy(dest, AUDIT_COGNITO_PORT, {}, 'pipe')
  })
})
afterAll(() => dirs.forEach((dest) => fs.rmSync(dest, { recursive: true, force: true })))

/**
 * What `user` can fetch of the build in `dir`, by key, each with its sha256 (the generated answers
 * by their text's); `masked`, by names and texts with the bundler's hashes masked.
 */
function fetchable(dir: string, user: AccessUser, masked = false): Record<string, string> {
  const paths = sitePaths(dir)
  const assetRoutes = JSON.parse(fs.readFileSync(paths.assetRoutes, 'utf8')) as AssetRoutes
  const audiences = readAudiencesFile(paths.audiences, access)
  const sha = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex')
  const files: Record<string, string> = {}
  for (const key of listFiles(paths.out)) {
    const route = governingRoute(key, assetRoutes)
    if (route === null || decideAccess(access, route, user) !== 'allow') continue
    const bytes = fs.readFileSync(path.join(paths.out, key))
    if (!masked) files[key] = sha(bytes)
    // A chunk's own bytes name other chunks in ways masking cannot reach: with other names, only its name is compared.
    else files[maskChunkHashes(key)] = key.startsWith('/_next/static/') ? '' : /\.(html|json|js|txt)$/.test(key) ? sha(maskChunkHashes(bytes.toString('utf8'))) : sha(bytes)
  }
  const sources = readerViewSources(access, assetRoutes, audiences)
  files['reader view'] = sha(JSON.stringify(readerViewFor(sources, user)))
  if (user !== null) files['root llms.txt'] = sha(rootLlmsTxt(audiencesOf(sources, user), user))
  return files
}

test('the builds differ: the full-access reader sees the edits', () => {
  const [before, after] = dirs.map((dir) => fetchable(dir, { username: 'admin', groups: [] }))
  expect(after['/docs/internal/guidelines/incident-response.html']).toBeDefined()
  expect(before['/docs/internal/guidelines/incident-response.html']).toBeUndefined()
  expect(after['/docs/internal/guidelines/new-data-source_integration-guide.html']).not.toBe(before['/docs/internal/guidelines/new-data-source_integration-guide.html'])
})

test('the internal reader sees pages of the guidelines beside the hidden ones (so the comparison means something)', () => {
  const files = fetchable(dirs[0], { username: 'internal1', groups: seededGroupsOf('internal1') })
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['/docs/internal/guidelines/disaster-recovery-plan.html', '/docs/internal/guidelines/environment-variables-management-guide.html']))
  expect(Object.keys(files)).not.toContain('/docs/internal/guidelines/secrets-management.html')
})

test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s can fetch the same files in both builds, byte for byte', (_name, role) => {
  const user: AccessUser = role === null ? null : { username: role, groups: seededGroupsOf(role) }
  const [before, after] = dirs.map((dir) => fetchable(dir, user))
  // The bundler now and then names a few chunks differently in one of two builds of the same
  // sources (docs/architecture.md); then names and texts are compared with its hashes masked.
  const chunks = (files: Record<string, string>) => Object.keys(files).filter((key) => key.startsWith('/_next/static/')).sort()
  const sameChunks = JSON.stringify(chunks(before)) === JSON.stringify(chunks(after))
  const [one, other] = sameChunks ? [before, after] : dirs.map((dir) => fetchable(dir, user, true))
  expect(Object.keys(other).sort()).toEqual(Object.keys(one).sort())
  expect(Object.keys(one).filter((key) => one[key] !== other[key])).toEqual([])
})
