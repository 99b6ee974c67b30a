/** @jest-environment node */
/**
 * The example CI workflow (docs/examples/deploy.yml) keeps the build incremental and deploys in the
 * order docs/deploy.md gives. A build job with no cloud credentials restores .cache, .next and out,
 * installs, builds, saves them and hands out/ (with the build's record of it), edge/dist and mcp/dist on; a deploy job, the only
 * one with the deploy role, downloads them, builds nothing, and runs the withdraw, cdk deploy, then
 * npm run deploy. Nothing runs the workflow here, so this reads it as GitHub would read its steps.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SITE_STACK_NAME } from '../../infra/lib/stack-outputs'
import { CACHE_PATHS } from '../../pipeline/steps/paths'

const WORKFLOW = path.resolve(__dirname, '../../docs/examples/deploy.yml')

type Value = string | Mapping
interface Mapping {
  [key: string]: Value
}

/**
 * A reader for the block-style YAML the workflow is written in: mappings, `- ` sequences of
 * mappings, plain scalars with trailing comments, and `|` block scalars. Anything else (flow
 * collections beyond `[a]`, anchors, quoted multi-line strings) is refused rather than misread.
 */
function readYaml(text: string): Mapping {
  const lines = text.split('\n').map((line) => line.replace(/\s+$/, ''))
  const indentOf = (line: string) => line.length - line.trimStart().length
  const meaningful = (line: string) => line.trim() !== '' && !line.trimStart().startsWith('#')
  let i = 0
  function scalar(raw: string): string {
    const value = raw.replace(/\s+#.*$/, '').trim()
    if (/^[&*!{]|^['"].*[^'"]$/.test(value)) throw new Error(`line ${i}: this reader does not read "${value}"`)
    return value.replace(/^(['"])(.*)\1$/, '$2')
  }
  function block(parentIndent: number): string {
    const body: string[] = []
    while (i < lines.length && (lines[i].trim() === '' || indentOf(lines[i]) > parentIndent)) body.push(lines[i++])
    const margin = Math.min(...body.filter((line) => line.trim()).map(indentOf))
    return body.map((line) => line.slice(margin)).join('\n').trim()
  }
  function mapping(indent: number): Mapping {
    const result: Mapping = {}
    while (i < lines.length) {
      if (!meaningful(lines[i])) { i++; continue }
      if (indentOf(lines[i]) < indent) break
      if (indentOf(lines[i]) > indent) throw new Error(`line ${i + 1}: unexpected indentation`)
      const match = /^\s*([\w.-]+):(?:\s+(.*))?$/.exec(lines[i])
      if (!match) throw new Error(`line ${i + 1}: not a "key: value" line: ${lines[i].trim()}`)
      i++
      const [, key, rest] = match
      const value = rest === undefined ? '' : scalar(rest)
      if (value === '|') result[key] = block(indent)
      else if (value !== '') result[key] = value
      else result[key] = children(indent)
    }
    return result
  }
  function children(parentIndent: number): Value {
    while (i < lines.length && !meaningful(lines[i])) i++
    const indent = indentOf(lines[i] ?? '')
    if (i >= lines.length || indent <= parentIndent) return ''
    if (!lines[i].trimStart().startsWith('- ')) return mapping(indent)
    const items: Mapping = {}
    let n = 0
    while (i < lines.length && (!meaningful(lines[i]) || (indentOf(lines[i]) === indent && lines[i].trimStart().startsWith('- ')))) {
      if (!meaningful(lines[i])) { i++; continue }
      lines[i] = lines[i].replace('- ', '  ')
      items[String(n++)] = mapping(indent + 2)
    }
    return items
  }
  return mapping(0)
}

interface Step {
  name: string
  uses?: string
  run?: string
  if?: string
  'working-directory'?: string
  with?: Record<string, string>
}

const workflow = readYaml(fs.readFileSync(WORKFLOW, 'utf8'))
const jobs = workflow.jobs as Mapping
const stepsOf = (job: string) => Object.values((jobs[job] as Mapping).steps as Mapping) as unknown as Step[]
const buildSteps = stepsOf('build')
const deploySteps = stepsOf('deploy')
const folders = (text: string | undefined) => (text ?? '').split('\n').map((line) => line.trim()).filter(Boolean).sort()
const cacheFolders = (step: Step) => folders(step.with?.path)
// The build's record of out/ goes with it, so the deploy need not hash out/ (pipeline/steps/outRecord.ts).
const BUILD_ARTIFACT = [CACHE_PATHS.outRecord, 'edge/dist', 'mcp/dist', 'out'].sort()

/** The index of the one step of `steps` that does `what`; fails naming it when there is none or more than one. */
function stepIndex(steps: Step[], what: string, test: (step: Step) => boolean): number {
  const found = steps.flatMap((step, index) => (test(step) ? [index] : []))
  expect([what, found.length]).toEqual([what, 1])
  return found[0]
}
const inOrder = (order: number[]) => expect(order).toEqual([...order].sort((a, b) => a - b))
const isCdkDeploy = (step: Step) => /\bcdk deploy\b/.test(step.run ?? '')
const isUpload = (step: Step) => /^npm run deploy$/.test(step.run ?? '')
const isWithdraw = (step: Step) => /^npm run deploy -- --withdraw$/.test(step.run ?? '')
const usesAws = (step: Step) => /aws-actions\//.test(step.uses ?? '') || /\bAWS_|role-to-assume/.test(JSON.stringify(step))

test('the build job restores the caches, installs, builds, saves the caches and hands out/ with its record, edge/dist and mcp/dist on, in that order', () => {
  inOrder([
    stepIndex(buildSteps, 'restore the caches', (step) => /^actions\/cache\/restore@/.test(step.uses ?? '')),
    stepIndex(buildSteps, 'npm ci', (step) => step.run === 'npm ci'),
    stepIndex(buildSteps, 'npm run build:prod', (step) => step.run === 'npm run build:prod'),
    stepIndex(buildSteps, 'save the caches', (step) => /^actions\/cache\/save@/.test(step.uses ?? '')),
    stepIndex(buildSteps, 'upload the build', (step) => /^actions\/upload-artifact@/.test(step.uses ?? '')),
  ])
  const upload = buildSteps.find((step) => /^actions\/upload-artifact@/.test(step.uses ?? ''))!
  expect(folders(upload.with?.path)).toEqual(BUILD_ARTIFACT)
})

test('the build job has no cloud credentials: no credentials step, no AWS variable, no OIDC token, no deploy', () => {
  const build = jobs.build as Mapping
  expect(buildSteps.filter(usesAws).map((step) => step.name)).toEqual([])
  expect(JSON.stringify(build)).not.toMatch(/AWS_|DEPLOY_ROLE|role-to-assume|secrets\./)
  expect(build.permissions).toEqual({ contents: 'read' })
  expect(buildSteps.filter((step) => isCdkDeploy(step) || /^npm run deploy\b/.test(step.run ?? '')).map((step) => step.name)).toEqual([])
  // Nor may the workflow grant a token to every job.
  expect(workflow.permissions).toBeUndefined()
})

test('the deploy job needs the build, downloads its artifact, takes the role, then withdraws, deploys the stack and uploads, in that order', () => {
  expect((jobs.deploy as Mapping).needs).toBe('build')
  const download = stepIndex(deploySteps, 'download the build', (step) => /^actions\/download-artifact@/.test(step.uses ?? ''))
  const upload = buildSteps.find((step) => /^actions\/upload-artifact@/.test(step.uses ?? ''))!
  expect(deploySteps[download].with?.name).toBe(upload.with?.name)
  inOrder([
    download,
    stepIndex(deploySteps, 'AWS credentials', (step) => /^aws-actions\/configure-aws-credentials@/.test(step.uses ?? '')),
    stepIndex(deploySteps, 'npm run deploy -- --withdraw', isWithdraw),
    stepIndex(deploySteps, 'cdk deploy', isCdkDeploy),
    stepIndex(deploySteps, 'npm run deploy', isUpload),
  ])
  expect((jobs.deploy as Mapping).permissions).toEqual({ 'id-token': 'write', contents: 'read' })
})

test('the deploy job builds nothing: no build script, no cache of the build, and its install runs no install scripts', () => {
  const runs = deploySteps.map((step) => step.run ?? '').filter(Boolean)
  expect(runs.filter((run) => /\bnpm run build|\bnext build|\bbuild:/.test(run))).toEqual([])
  expect(runs.filter((run) => /\bnpm (ci|install|i)\b/.test(run) && !/--ignore-scripts\b/.test(run))).toEqual([])
  expect(deploySteps.filter((step) => /^actions\/cache/.test(step.uses ?? '')).map((step) => step.name)).toEqual([])
})

test('no step may skip itself: the withdraw and the stack run every time (each does nothing when nothing changed)', () => {
  expect([...buildSteps, ...deploySteps].filter((step) => step.if !== undefined).map((step) => step.name)).toEqual([])
})

test('cdk deploy deploys the site stack alone, from infra/, without a prompt; npm run deploy reads the bucket from its outputs', () => {
  const cdk = deploySteps.find(isCdkDeploy)!
  expect(cdk['working-directory']).toBe('infra')
  expect(cdk.run!.split(/\s+/)).toEqual(expect.arrayContaining(['deploy', SITE_STACK_NAME, '--exclusively', '--require-approval', 'never']))
})

test('the caches hold .cache, .next and out/, keyed by the lockfile and the commit, restored from the newest earlier run', () => {
  const restore = buildSteps.find((step) => /^actions\/cache\/restore@/.test(step.uses ?? ''))!
  const save = buildSteps.find((step) => /^actions\/cache\/save@/.test(step.uses ?? ''))!
  expect(cacheFolders(restore)).toEqual(['.cache', '.next', 'out'])
  expect(cacheFolders(save)).toEqual(cacheFolders(restore))
  const key = restore.with!.key
  expect(save.with!.key).toBe(key)
  expect(key).toContain("hashFiles('package-lock.json')")
  expect(key).toMatch(/\$\{\{ github\.sha \}\}$/)
  const restoreKeys = restore.with!['restore-keys'].split('\n').map((line) => line.trim())
  expect(restoreKeys.length).toBeGreaterThan(0)
  // Each is a prefix of the key without the commit, so any earlier run's caches match it.
  for (const prefix of restoreKeys) expect([prefix, key.startsWith(prefix) && !prefix.includes('github.sha')]).toEqual([prefix, true])
  expect(restoreKeys[0]).toContain("hashFiles('package-lock.json')")
})

test('one deploy at a time, never cancelled halfway', () => {
  expect(workflow.concurrency).toEqual({ group: expect.any(String), 'cancel-in-progress': 'false' })
})

test('the reader refuses what it cannot read instead of guessing', () => {
  expect(() => readYaml('a: {b: 1}\n')).toThrow(/does not read/)
  expect(() => readYaml('a: 1\n   b: 2\n')).toThrow(/line 2: unexpected indentation/)
  expect(readYaml('a:\n  - x: 1\n    y: |\n      one\n      two\n  - x: 2\n')).toEqual({ a: { 0: { x: '1', y: 'one\ntwo' }, 1: { x: '2' } } })
})
