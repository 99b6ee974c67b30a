/** @jest-environment node */
/**
 * A build whose process runs out of work before its last step (a promise nothing left running can
 * settle) fails with a message, instead of exiting with code 0 as if it had finished.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

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
  const finished = runMain("new Promise((resolve) => setTimeout(() => { console.log('done'); resolve() }, 50))")
  expect(finished.status).toBe(0)
  expect(finished.stdout.trim()).toBe('done')
  expect(finished.stderr).toBe('')
})
