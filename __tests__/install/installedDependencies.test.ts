/**
 * @jest-environment node
 *
 * `npm start` and `npm test` install when node_modules does not hold what package-lock.json names
 * (scripts/installedDependencies.mjs): a fresh clone, and a pull that changed the lock.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

type Packages = Record<string, { version: string; optional?: boolean }>
let installNeeded: (dir: string) => { command: string; why: string } | null
beforeAll(async () => {
  ;({ installNeeded } = await import(path.resolve('scripts/installedDependencies.mjs')))
})

const LOCKED: Packages = { '': { version: '1.0.0' }, 'node_modules/a': { version: '1.2.3' }, 'node_modules/b/node_modules/c': { version: '2.0.0' }, 'node_modules/@x/darwin': { version: '1.0.0', optional: true } }
const { '': _root, 'node_modules/@x/darwin': _other, ...INSTALLED } = LOCKED

function project(lock: Packages | null, installed: Packages | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'installed-'))
  if (lock) fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: lock }))
  if (installed) {
    fs.mkdirSync(path.join(dir, 'node_modules'))
    fs.writeFileSync(path.join(dir, 'node_modules/.package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: installed }))
  }
  return dir
}

const cases: [string, Packages | null, Packages | null, { command: string; why: string } | null][] = [
  ['installed as locked (an optional package for another system left out)', LOCKED, INSTALLED, null],
  ['a fresh clone', LOCKED, null, { command: 'ci', why: 'no node_modules' }],
  ['no lock and no node_modules', null, null, { command: 'install', why: 'no node_modules' }],
  ['a pull that moved a package', { ...LOCKED, 'node_modules/a': { version: '1.3.0' } }, INSTALLED, { command: 'ci', why: 'node_modules/a is 1.2.3, the lock says 1.3.0' }],
  ['a pull that added a package', { ...LOCKED, 'node_modules/d': { version: '4.0.0' } }, INSTALLED, { command: 'ci', why: 'node_modules/d is in the lock but not installed' }],
  ['a pull that removed a package', { '': LOCKED[''], 'node_modules/a': LOCKED['node_modules/a'] }, INSTALLED, { command: 'ci', why: 'node_modules/b/node_modules/c is installed but not in the lock' }],
]

test.each(cases)('%s', (_name, lock, installed, expected) => {
  const dir = project(lock, installed)
  try {
    expect(installNeeded(dir)).toEqual(expected)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("this project's own install holds what its locks name", () => {
  expect(installNeeded(path.resolve('.'))).toBeNull()
  expect(installNeeded(path.resolve('e2e/inspector'))).toBeNull()
})
