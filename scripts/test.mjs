// `npm test`: everything a fresh machine can run, in order of cost.
//   1. type-check   2. unit, component, integration and infra tests (jest)
//   3. build the site once, with audit markers, in a temporary copy (scripts/audit/buildAuditSite.ts)
//   4. leak audit, attacks through the real server and browser tests against that build (e2e/); the
//      leak audit also against a bucket that build is deployed to (e2e/deployedBucket.test.ts)
// Debian's Chromium (its headless shell, e2e/browser.ts) is installed with apt when missing (as root),
// or the exact command is printed.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' }
const step = (title) => console.log(`\n=== ${title} ===`)

// `npm ci` installs exactly the lock (and fails if it drifted from package.json); `npm install` only
// without one.
if (!fs.existsSync('node_modules/.package-lock.json')) {
  const install = fs.existsSync('package-lock.json') ? 'ci' : 'install'
  step(`installing dependencies (npm ${install})`)
  execFileSync('npm', [install, '--no-audit', '--no-fund'], { stdio: 'inherit', env })
}

// The MCP Inspector's CLI (an independent MCP client for e2e/mcpServer.test.ts) and the Node 22 it
// needs: an install of its own, from its own lock (scripts/inspectorInstall.ts says why).
if (!fs.existsSync('e2e/inspector/node_modules/.package-lock.json')) {
  step('installing the MCP Inspector CLI (npm ci in e2e/inspector)')
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: path.join(root, 'e2e/inspector'), stdio: 'inherit', env })
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
  execFileSync('bash', ['-c', `${command.replace('install -y', 'install -y -qq')} >/dev/null`], { stdio: 'inherit', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } })
}

const totals = { passed: 0, failed: 0 }
let failedSteps = []

function jest(title, args, jestEnv = env) {
  step(title)
  const results = path.join(os.tmpdir(), `jest-results-${process.pid}-${totals.passed + totals.failed}.json`)
  const run = spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', ...args, '--json', `--outputFile=${results}`], { stdio: 'inherit', env: jestEnv })
  if (fs.existsSync(results)) {
    const summary = JSON.parse(fs.readFileSync(results, 'utf8'))
    totals.passed += summary.numPassedTests
    totals.failed += summary.numFailedTests + summary.numRuntimeErrorTestSuites
    fs.rmSync(results)
  } else {
    totals.failed += 1
  }
  if (run.status !== 0) failedSteps.push(title)
}

step('type-check (tsc --noEmit)')
if (spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'], { stdio: 'inherit', env }).status !== 0) {
  failedSteps.push('type-check')
  totals.failed += 1
}

jest('unit, component, integration and infra tests', ['-c', 'jest.config.js'])

/** Builds the audit site of `profile` in a temporary folder and runs `files` of e2e/ against it. */
function auditBuild(profile, title, files) {
  const auditDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-audit-'))
  try {
    step(`building the site with audit markers, ${profile} profile (a temporary copy; the working tree is untouched)`)
    execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/audit/buildAuditSite.ts', auditDir, profile], { stdio: 'inherit', env })
    jest(title, ['-c', 'e2e/jest.config.js', ...files], { ...env, AUDIT_SITE_DIR: auditDir })
  } catch (error) {
    failedSteps.push(`audit build (${profile})`)
    totals.failed += 1
  } finally {
    fs.rmSync(auditDir, { recursive: true, force: true })
  }
}

auditBuild('finance', 'leak audit, attacks and browser tests against the built site', [])
for (const profile of ['sql-folder', 'widened']) {
  auditBuild(profile, `leak audit and search against a build whose finer rules have another shape (${profile})`, ['e2e/leakAudit.test.ts', 'e2e/search.test.ts'])
}

console.log(`\n${failedSteps.length ? `Failed steps: ${failedSteps.join(', ')}` : 'All steps passed.'}`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(failedSteps.length ? 1 : 0)
