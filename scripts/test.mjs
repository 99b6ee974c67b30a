// `npm test`: everything a fresh machine can run, in order of cost.
//   1. type-check   2. unit, component, integration and infra tests (jest)
//   3. build the site once, with audit markers, in a temporary copy (scripts/audit/buildAuditSite.ts)
//   4. leak audit, attacks through the real server and browser tests against that build (e2e/); the
//      leak audit also against a bucket that build is deployed to (e2e/deployedBucket.test.ts)
// Debian's Chromium (its headless shell, e2e/browser.ts) is installed with apt when missing (as root),
// or the exact command is printed.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { endWithParent } from './endWithParent.cjs'
import { spawnReaper } from './groupReaper.cjs'
import { installNeeded } from './installedDependencies.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' }
const step = (title) => console.log(`\n=== ${title} ===`)

// Each step runs in a process group of its own, which a stop of `npm test` (SIGINT, SIGTERM, SIGHUP,
// or npm gone: ./endWithParent.cjs) ends whole, with its jest workers, servers and browsers: a
// blocking spawn kept running after this script was stopped. Killed outright, this script has no
// handler: the reaper (./groupReaper.cjs), outside its groups, ends what it held then.
const reaper = spawnReaper()
let running = null
let stopping = null
/** What a stop removes before this script ends: the audit builds' temporary folders. */
const cleanups = new Set()
function stopNow() {
  for (const cleanup of cleanups) cleanup()
  process.exit(128 + os.constants.signals[stopping])
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping ??= signal
    if (!running) return stopNow()
    try {
      process.kill(-running.pid, signal)
    } catch {
      // The group is gone already; its exit, still to come, ends this script.
    }
  })
}
endWithParent()

/** Runs `command` with `args` to its end; its exit status, or the error named when it fails and `check` is set. */
function run(command, args, { check = false, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env, detached: true, ...options })
    running = child
    if (child.pid) reaper.holdGroup(child.pid)
    child.on('error', reject)
    child.on('exit', (status, signal) => {
      running = null
      reaper.releaseGroup(child.pid)
      if (stopping) {
        // What of the group outlived its leader (a worker that ignores the signal) ends with it.
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // The group is gone.
        }
        stopNow()
      }
      // A step ended by a signal prints no summary of its own: say which, so its log says why it stopped.
      if (signal) console.error(`\n${path.basename(args[0] ?? command)} ended by ${signal}`)
      if (check && status !== 0) reject(new Error(`${[command, ...args].join(' ')} failed (${signal ?? `exit status ${status}`})`))
      else resolve(status ?? 1)
    })
  })
}

// The project's dependencies, then the MCP Inspector's CLI (an independent MCP client for
// e2e/mcpServer.test.ts) and the Node 22 it needs: an install of its own, from its own lock
// (scripts/inspectorInstall.ts says why).
for (const [dir, what] of [[root, 'dependencies'], [path.join(root, 'e2e/inspector'), 'the MCP Inspector CLI in e2e/inspector']]) {
  const install = installNeeded(dir)
  if (!install) continue
  step(`installing ${what} (npm ${install.command}: ${install.why})`)
  await run('npm', [install.command, '--no-audit', '--no-fund'], { cwd: dir, check: true })
}

// The browser and its apt package, named once for .ci/run, this script and e2e/browser.ts.
const browser = Object.fromEntries([...fs.readFileSync(path.join(root, 'e2e/chromium.env'), 'utf8').matchAll(/^([A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name, value]))
const CHROMIUM = process.env.CHROMIUM_PATH ?? browser.CHROMIUM_BIN
if (!fs.existsSync(CHROMIUM)) {
  const command = `apt-get update && apt-get install -y ${browser.CHROMIUM_PACKAGE}`
  if (process.getuid?.() !== 0) {
    console.error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it as root with:\n  ${command}`)
    process.exit(1)
  }
  step(`installing Debian's Chromium (${command})`)
  await run('bash', ['-c', `${command.replace('install -y', 'install -y -qq')} >/dev/null`], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, check: true })
}

const totals = { passed: 0, failed: 0 }
let failedSteps = []

async function jest(title, args, jestEnv = env) {
  step(title)
  const results = path.join(os.tmpdir(), `jest-results-${process.pid}-${totals.passed + totals.failed}.json`)
  const status = await run(process.execPath, ['node_modules/jest/bin/jest.js', ...args, '--json', `--outputFile=${results}`], { env: jestEnv })
  if (fs.existsSync(results)) {
    const summary = JSON.parse(fs.readFileSync(results, 'utf8'))
    totals.passed += summary.numPassedTests
    totals.failed += summary.numFailedTests + summary.numRuntimeErrorTestSuites
    fs.rmSync(results)
  } else {
    totals.failed += 1
  }
  if (status !== 0) failedSteps.push(title)
}

step('type-check (tsc --noEmit)')
if ((await run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'])) !== 0) {
  failedSteps.push('type-check')
  totals.failed += 1
}

await jest('unit, component, integration and infra tests', ['-c', 'jest.config.js'])

/** Builds the audit site of `profile` in a temporary folder and runs `files` of e2e/ against it. */
async function auditBuild(profile, title, files) {
  const auditDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-audit-'))
  const removeDir = () => fs.rmSync(auditDir, { recursive: true, force: true })
  cleanups.add(removeDir)
  reaper.holdDir(auditDir)
  try {
    step(`building the site with audit markers, ${profile} profile (a temporary copy; the working tree is untouched)`)
    await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/audit/buildAuditSite.ts', auditDir, profile], { check: true })
    await jest(title, ['-c', 'e2e/jest.config.js', ...files], { ...env, AUDIT_SITE_DIR: auditDir })
  } catch (error) {
    failedSteps.push(`audit build (${profile})`)
    totals.failed += 1
  } finally {
    cleanups.delete(removeDir)
    removeDir()
    reaper.releaseDir(auditDir)
  }
}

await auditBuild('finance', 'leak audit, attacks and browser tests against the built site', [])
for (const profile of ['sql-folder', 'widened']) {
  await auditBuild(profile, `leak audit and search against a build whose finer rules have another shape (${profile})`, ['e2e/leakAudit.test.ts', 'e2e/search.test.ts'])
}

console.log(`\n${failedSteps.length ? `Failed steps: ${failedSteps.join(', ')}` : 'All steps passed.'}`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(failedSteps.length ? 1 : 0)
