/**
 * Whether a folder's node_modules holds what its package-lock.json names, for `npm start` and
 * `npm test` to install when it does not: a fresh clone, and also a pull or a checkout that changed
 * the lock (they installed only when node_modules was missing, and then ran with the old packages).
 * npm's own record of what it installed (node_modules/.package-lock.json) is compared with the lock,
 * package by package. Plain Node with no dependencies, so it runs before the install.
 */
import fs from 'node:fs'
import path from 'node:path'

const readPackages = (file) => JSON.parse(fs.readFileSync(file, 'utf8')).packages ?? {}

/**
 * The install `dir` needs, and why; null when its node_modules holds what its lock names. `npm ci`
 * installs exactly the lock (and fails if it drifted from package.json); `npm install` only without one.
 */
export function installNeeded(dir) {
  const lock = path.join(dir, 'package-lock.json')
  const installed = path.join(dir, 'node_modules/.package-lock.json')
  if (!fs.existsSync(lock)) return fs.existsSync(installed) ? null : { command: 'install', why: 'no node_modules' }
  if (!fs.existsSync(installed)) return { command: 'ci', why: 'no node_modules' }
  let wanted, have
  try {
    wanted = readPackages(lock)
    have = readPackages(installed)
  } catch (error) {
    return { command: 'ci', why: `a lock does not parse (${error.message})` }
  }
  for (const [key, entry] of Object.entries(wanted)) {
    // The project itself, and optional packages for other systems, which npm leaves out.
    if (key === '' || (!have[key] && entry.optional)) continue
    if (!have[key]) return { command: 'ci', why: `${key} is in the lock but not installed` }
    if (have[key].version !== entry.version) return { command: 'ci', why: `${key} is ${have[key].version}, the lock says ${entry.version}` }
  }
  const extra = Object.keys(have).find((key) => !Object.hasOwn(wanted, key))
  return extra ? { command: 'ci', why: `${extra} is installed but not in the lock` } : null
}
