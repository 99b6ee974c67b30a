/**
 * @jest-environment node
 *
 * `npm start` and `npm run dev` stopped with SIGTERM: npm and its shell end, and the script's own
 * process, left to init, ends too (scripts/endWithParent.cjs), as its SIGTERM handler has it.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'

// The waits below bound each phase (the script's start, then its end); Jest's own 5 s default, shorter
// than their sum, failed a run on a busy machine while the script was still starting.
jest.setTimeout(20_000)

test('a script whose starter is killed gets its own SIGTERM, and ends', async () => {
  await endsWith('shell')
})

test("a script whose npm is killed outright ends too, though npm's shell stays to wait for it", async () => {
  await endsWith('npm')
})

/** Starts the script under a shell (under a process standing for npm, when `killed` is npm), kills `killed` with SIGKILL, and waits for the script to end by its own SIGTERM. */
async function endsWith(killed: 'shell' | 'npm') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'end-with-parent-'))
  const script = path.join(dir, 'script.mjs')
  fs.writeFileSync(
    script,
    [
      `import { endWithParent } from ${JSON.stringify(path.resolve('scripts/endWithParent.cjs'))}`,
      `import fs from 'node:fs'`,
      `fs.writeFileSync(${JSON.stringify(path.join(dir, 'pid'))}, String(process.pid))`,
      `process.on('SIGTERM', () => { fs.writeFileSync(${JSON.stringify(path.join(dir, 'stopped'))}, 'SIGTERM'); process.exit(0) })`,
      `endWithParent(50)`,
      `setInterval(() => {}, 1000)`,
    ].join('\n')
  )
  // A shell that stays the script's parent, as npm's does; npm, when it is the one killed, its parent.
  const shellArgs = ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}; true`]
  const shell = killed === 'shell' ? spawn('sh', shellArgs, { stdio: 'ignore' }) : spawn(process.execPath, ['-e', `require('node:child_process').spawn('sh', ${JSON.stringify(shellArgs)}, { stdio: 'ignore' }); setInterval(() => {}, 1000)`], { stdio: 'ignore' })
  try {
    for (let waited = 0; !fs.existsSync(path.join(dir, 'pid')); waited += 20) {
      if (waited > 10_000) throw new Error('the script did not start')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'))
    shell.kill('SIGKILL')
    for (let waited = 0; isRunning(pid); waited += 20) {
      if (waited > 5000) {
        process.kill(pid, 'SIGKILL')
        throw new Error('the script outlived its starter')
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(fs.readFileSync(path.join(dir, 'stopped'), 'utf8')).toBe('SIGTERM')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
