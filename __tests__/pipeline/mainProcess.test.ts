/** @jest-environment node */
/**
 * A build whose process runs out of work before its last step (a promise nothing left running can
 * settle) fails with a message, instead of exiting with code 0 as if it had finished.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'

const MODULE = JSON.stringify(path.join(__dirname, '../../pipeline/mainProcess.ts'))

/** Runs `work` as a process's main task, in a process of its own (Jest's own would stay alive). */
function runMain(work: string, options = '{}') {
  const script = `require(${MODULE}).runAsMain('probe', () => ${work}, ${options})`
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 60_000 })
}

test('a task that can never finish ends the process with code 1 and says so', () => {
  const run = runMain('new Promise(() => {})')
  expect(run.status).toBe(1)
  expect(run.stderr).toContain('probe: stopped before it finished')
})

test('a task that fails ends with code 1 and its message; one that finishes, with code 0', () => {
  const failed = runMain("Promise.reject(new Error('a page does not compile'))")
  expect(failed.status).toBe(1)
  expect(failed.stderr.trim()).toBe('a page does not compile')
  const named = runMain("Promise.reject(new Error('no bucket'))", '{ prefixErrors: true }')
  expect(named.status).toBe(1)
  expect(named.stderr.trim()).toBe('probe: no bucket')
  // Named once when the message names the command already.
  expect(runMain("Promise.reject(new Error('probe: another probe holds the lease'))", '{ prefixErrors: true }').stderr.trim()).toBe('probe: another probe holds the lease')
  expect(runMain("Promise.reject(new Error('probe --withdraw: nothing'))", '{ prefixErrors: true }').stderr.trim()).toBe('probe --withdraw: nothing')
  expect(runMain("Promise.reject(new Error('probes: none'))", '{ prefixErrors: true }').stderr.trim()).toBe('probe: probes: none')
  expect(runMain("Promise.reject(new Error('probe record: none'))", '{ prefixErrors: true }').stderr.trim()).toBe('probe: probe record: none')
  const finished = runMain("new Promise((resolve) => setTimeout(() => { console.log('done'); resolve() }, 50))")
  expect(finished.status).toBe(0)
  expect(finished.stdout.trim()).toBe('done')
  expect(finished.stderr).toBe('')
})

test('a process that has ended but is not yet reaped (a zombie: a build killed a moment ago) is not running, so its lock does not refuse the next build', async () => {
  // The shell starts a short child and becomes `sleep 5`, which never reaps it.
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
    for (let waited = 0; !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); waited += 20) {
      if (waited > 5000) throw new Error(`process ${pid} did not end`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(isRunning(pid)).toBe(false)
    expect(isRunning(parent.pid!)).toBe(true)
  } finally {
    parent.kill('SIGKILL')
  }
})

test('no number but a process id is running: 0 and below name process groups, which a check must not signal', () => {
  for (const pid of [0, -1, -process.pid, Number.NaN, 1.5]) expect(isRunning(pid)).toBe(false)
  expect(isRunning(process.pid)).toBe(true)
})
