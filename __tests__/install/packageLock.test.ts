/**
 * @jest-environment node
 *
 * package-lock.json is what CI (.ci/run) and the ops pipelines install from, with `npm ci`, which
 * refuses a lock that has drifted from package.json. These tests fail on the drift first, with the
 * package named, instead of at the next `npm ci`:
 *
 * - the lock's root entry declares exactly package.json's dependencies (an edit of package.json
 *   without `npm install` fails here);
 * - every dependency and optional dependency of every locked package is itself locked, at the
 *   exact version its parent pins. This is the check for the optional native packages of every
 *   platform (@next/swc-*, @pagefind/*, @rspack/binding-*, @esbuild/*): npm leaves out of the lock
 *   one it cannot fetch (the registry here serves no darwin, freebsd or windows build of
 *   @pagefind 1.6.0), and `npm ci` then calls the lock out of sync, on every platform;
 * - `npm ci --dry-run` itself accepts the lock (npm's own check, in a temporary copy, offline from
 *   npm's cache, nothing installed).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

interface LockedPackage {
  version?: string
  link?: boolean
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  engines?: Record<string, string>
}

const root = path.resolve(__dirname, '../..')
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))
const manifest = readJson('package.json') as LockedPackage & { name: string }
const lock = readJson('package-lock.json') as { name: string; lockfileVersion: number; packages: Record<string, LockedPackage> }

/** Where Node and npm find `name` from the package at `location` ('' is the project). */
function lockedLocation(location: string, name: string): string | undefined {
  let dir = location
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`
    if (lock.packages[candidate]) return candidate
    if (!dir) return undefined
    const parent = dir.lastIndexOf('/node_modules/')
    dir = parent < 0 ? '' : dir.slice(0, parent)
  }
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/

test('the lock is version 3 and its root entry declares exactly the dependencies of package.json', () => {
  expect(lock.lockfileVersion).toBe(3)
  expect(lock.name).toBe(manifest.name)
  const rootEntry = lock.packages['']
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'engines'] as const) {
    expect([field, rootEntry[field] ?? {}]).toEqual([field, manifest[field] ?? {}])
  }
})

test('every dependency and optional dependency of every locked package is locked, at the version its parent pins', () => {
  const problems: string[] = []
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue
    const edges = {
      ...(location === '' ? entry.devDependencies : {}),
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...Object.fromEntries(Object.entries(entry.peerDependencies ?? {}).filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional)),
    }
    for (const [name, spec] of Object.entries(edges)) {
      const found = lockedLocation(location, name)
      const from = location || 'package.json'
      if (!found) problems.push(`${from} needs ${name}@${spec}: not in the lock`)
      else if (EXACT_VERSION.test(spec) && lock.packages[found].version !== spec) {
        problems.push(`${from} needs ${name}@${spec}: the lock has ${lock.packages[found].version} at ${found}`)
      }
    }
  }
  expect(problems).toEqual([])
})

test('npm ci accepts the lock (npm ci --dry-run in a temporary copy, offline from npm\'s cache)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-npm-ci-'))
  try {
    fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'))
    fs.copyFileSync(path.join(root, 'package-lock.json'), path.join(dir, 'package-lock.json'))
    const ci = (mode: '--offline' | '--prefer-offline') =>
      spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', mode], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
    let run = ci('--offline')
    // A dist-tag range (a dependency on `latest`) needs its packument; after `npm ci` or
    // `npm install` it is in the cache, elsewhere the registry is asked for it.
    if (run.status !== 0 && /ENOTCACHED/.test(run.stderr)) run = ci('--prefer-offline')
    // npm's reason, without the usage text it prints after a usage error.
    const errors = run.stderr.split(/^npm error Clean install a project$/m)[0].split('\n').filter((line) => /^npm error ./.test(line)).join('\n')
    expect([run.status, errors]).toEqual([0, ''])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}, 150_000)
