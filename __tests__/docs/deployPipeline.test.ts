/** @jest-environment node */
/**
 * The example CI workflow (docs/examples/deploy.yml) keeps the build incremental and deploys in the
 * order docs/deploy.md gives: restore .cache, .next and out, install, build, save them, cdk deploy,
 * then npm run deploy. Nothing runs the workflow here, so this reads it as GitHub would read its
 * steps.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SITE_STACK_NAME } from '../../infra/lib/stack-outputs'

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
const steps = Object.values((jobs.deploy as Mapping).steps as Mapping) as unknown as Step[]
const cacheFolders = (step: Step) => (step.with?.path ?? '').split('\n').map((line) => line.trim()).filter(Boolean).sort()

/** The index of the one step that does `what`; fails naming it when there is none or more than one. */
function stepIndex(what: string, test: (step: Step) => boolean): number {
  const found = steps.flatMap((step, index) => (test(step) ? [index] : []))
  expect([what, found.length]).toEqual([what, 1])
  return found[0]
}

test('the workflow restores the caches, installs, builds, saves the caches, deploys the stack, then deploys the files, in that order', () => {
  const order = [
    stepIndex('restore the caches', (step) => /^actions\/cache\/restore@/.test(step.uses ?? '')),
    stepIndex('npm ci', (step) => step.run === 'npm ci'),
    stepIndex('npm run build:prod', (step) => step.run === 'npm run build:prod'),
    stepIndex('save the caches', (step) => /^actions\/cache\/save@/.test(step.uses ?? '')),
    stepIndex('cdk deploy', (step) => /\bcdk deploy\b/.test(step.run ?? '')),
    stepIndex('npm run deploy', (step) => /^npm run deploy\b/.test(step.run ?? '')),
  ]
  expect(order).toEqual([...order].sort((a, b) => a - b))
  // No step may skip itself: the deploy runs the stack every time (a no-op when nothing changed).
  expect(steps.filter((step) => step.if !== undefined).map((step) => step.name)).toEqual([])
})

test('cdk deploy deploys the site stack alone, from infra/, without a prompt; npm run deploy reads the bucket from its outputs', () => {
  const cdk = steps.find((step) => /\bcdk deploy\b/.test(step.run ?? ''))!
  expect(cdk['working-directory']).toBe('infra')
  expect(cdk.run!.split(/\s+/)).toEqual(expect.arrayContaining(['deploy', SITE_STACK_NAME, '--exclusively', '--require-approval', 'never']))
  expect(steps.find((step) => /^npm run deploy\b/.test(step.run ?? ''))!.run).toBe('npm run deploy')
})

test('the caches hold .cache, .next and out/, keyed by the lockfile and the commit, restored from the newest earlier run', () => {
  const restore = steps.find((step) => /^actions\/cache\/restore@/.test(step.uses ?? ''))!
  const save = steps.find((step) => /^actions\/cache\/save@/.test(step.uses ?? ''))!
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
