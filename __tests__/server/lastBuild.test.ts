/** @jest-environment node */
/** Whether `npm start` builds before it serves (scripts/lastBuild.mjs), on a project's files as a build leaves them. */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { tempSite } from '../fixtures/tempSite'

const MODULE = path.resolve(__dirname, '../../scripts/lastBuild.mjs')
const needsBuild = (root: string) => execFileSync(process.execPath, ['--input-type=module', '-e', `import { needsBuild } from ${JSON.stringify(MODULE)}; process.stdout.write(String(needsBuild(${JSON.stringify(root)})))`], { encoding: 'utf8' }) === 'true'

/** A project whose last build finished at `finished` seconds ago, for `mode`; its sources and bundles written `sources` and `bundles` seconds ago. */
function project({ finished = 10 as number | null, mode = 'local', sources = 60, bundles = 20 } = {}): string {
  const root = tempSite('last-build-', {
    'content/docs/leads/intro.mdx': '# Intro\n',
    'edge/authorizer.ts': 'export {}\n',
    'edge/dist/index.js': '',
    'edge/dist/user-pool.json': JSON.stringify({ mode, region: 'eu-west-2', userPoolId: 'eu-west-2_X' }),
    'mcp/dist/index.js': '',
    'out/index.html': '<html></html>',
    ...(finished === null ? {} : { '.cache/out-record.json': '{}' }),
  })
  const age = (file: string, seconds: number) => {
    const at = new Date(Date.now() - seconds * 1000)
    fs.utimesSync(path.join(root, file), at, at)
  }
  for (const file of ['content/docs/leads/intro.mdx', 'edge/authorizer.ts']) age(file, sources)
  for (const file of ['edge/dist/index.js', 'edge/dist/user-pool.json', 'mcp/dist/index.js']) age(file, bundles)
  if (finished !== null) age('.cache/out-record.json', finished)
  return root
}

test('a finished build for the local Cognito, with no source changed since, is served as it is; the bundles it wrote are no sources', () => {
  expect(needsBuild(project())).toBe(false)
  expect(needsBuild(project({ bundles: 1 }))).toBe(false)
})

test('a build that did not finish (no record of out/), one for AWS, or a source changed since, is built again', () => {
  expect(needsBuild(project({ finished: null }))).toBe(true)
  expect(needsBuild(project({ mode: 'production' }))).toBe(true)
  expect(needsBuild(project({ sources: 1 }))).toBe(true)
})
