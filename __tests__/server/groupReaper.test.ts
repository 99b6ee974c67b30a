/**
 * @jest-environment node
 *
 * `npm test` killed outright (SIGKILL to its process group): the steps it ran in groups of their
 * own, and its temporary folders, are ended and removed by its reaper (scripts/groupReaper.cjs).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'
const { GRACE_MS } = require('../../scripts/groupReaper.cjs') as { GRACE_MS: number }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(condition: () => boolean, what: string, ms = 10_000) {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > ms) throw new Error(what)
    await sleep(50)
  }
}

/** Starts a script that runs a step as scripts/test.mjs does (its own group, held by the reaper) and a folder; returns their ids. */
async function startScript(dir: string, { release }: { release: boolean }) {
  const script = path.join(dir, 'script.cjs')
  const scratch = path.join(dir, 'scratch')
  fs.mkdirSync(scratch)
  fs.writeFileSync(
    script,
    [
      `const { spawn } = require('node:child_process')`,
      `const fs = require('node:fs')`,
      `const { spawnReaper } = require(${JSON.stringify(path.resolve('scripts/groupReaper.cjs'))})`,
      `const reaper = spawnReaper()`,
      `reaper.holdDir(${JSON.stringify(scratch)})`,
      // The step and a worker of its own that outlives nothing by itself.
      `const step = spawn('sh', ['-c', 'sleep 60 & echo $! > ${path.join(dir, 'worker')}; wait'], { stdio: 'ignore', detached: true })`,
      `reaper.holdGroup(step.pid)`,
      release ? `step.on('exit', () => { reaper.releaseGroup(step.pid); reaper.releaseDir(${JSON.stringify(scratch)}) })` : '',
      `fs.writeFileSync(${JSON.stringify(path.join(dir, 'step'))}, String(step.pid))`,
      `setInterval(() => {}, 1000)`,
    ].join('\n')
  )
  // The script leads a group of its own, as npm test does under a shell or a CI runner.
  const child = spawn(process.execPath, [script], { stdio: 'ignore', detached: true })
  // A file seen between its creation and its write reads empty, and Number('') is 0: a signal to
  // -0 ends this test's own process group, Jest with it, with no word.
  await until(() => pidIn(path.join(dir, 'step')) !== null && pidIn(path.join(dir, 'worker')) !== null, 'the script did not start its step')
  return { script: child.pid!, step: pidIn(path.join(dir, 'step'))!, worker: pidIn(path.join(dir, 'worker'))!, scratch }
}

/** The process id `file` holds once written whole, else null. */
function pidIn(file: string): number | null {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : ''
  return /^[1-9]\d*$/.test(text) ? Number(text) : null
}

type Started = Awaited<ReturnType<typeof startScript>>

/** Runs `check` on a started script (releasing its step and folder as they end, or not), then ends whatever is left. */
async function withScript(release: boolean, check: (ids: Started) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-reaper-'))
  let ids: Started | undefined
  try {
    ids = await startScript(dir, { release })
    await check(ids)
  } finally {
    for (const pid of ids ? [ids.step, ids.worker] : []) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

test('a script killed outright with its group leaves no step, worker or temporary folder behind', () =>
  withScript(false, async (ids) => {
    process.kill(-ids.script, 'SIGKILL')
    await until(() => !isRunning(ids.step) && !isRunning(ids.worker), 'the step or its worker outlived the script', 8000)
    await until(() => !fs.existsSync(ids.scratch), 'the temporary folder outlived the script', 8000)
  }), 30_000)

test('what the script released (a step that ended, a folder it removed) the reaper leaves alone', () =>
  withScript(true, async (ids) => {
    // The step's group ends by itself, and the script releases it and the folder; a folder of the same name is made again.
    process.kill(-ids.step, 'SIGKILL')
    await until(() => !isRunning(ids.step), 'the step did not end')
    fs.mkdirSync(ids.scratch, { recursive: true })
    await sleep(300)
    process.kill(-ids.script, 'SIGKILL')
    // Past the reaper's grace: a folder or group it still held would be gone by now.
    await sleep(GRACE_MS + 1500)
    expect(fs.existsSync(ids.scratch)).toBe(true)
  }), 30_000)
