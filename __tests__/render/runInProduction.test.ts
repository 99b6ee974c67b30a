/**
 * @jest-environment node
 *
 * A build killed outright (SIGKILL, no handler runs) left `next build` writing on into .next/ and
 * out/ under the next build: Next's processes run in an environment that ends them with their parent.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'
import { productionEnv } from '../../pipeline/render/runInProduction'

test("a process started in Next's production environment, and the worker it starts, end once the build that started it is killed outright", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-in-production-'))
  const env = productionEnv({ heapMb: 256 })
  // Stands for `next build` (started by the build) and one of its workers (started by it, inheriting its environment).
  const next = `require('node:child_process').spawn(process.execPath, ['-e', 'require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, 'worker'))}, String(process.pid)); setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(path.join(dir, 'next'))}, String(process.pid)); setInterval(() => {}, 1000)`
  const build = spawn(process.execPath, ['-e', `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(next)}], { stdio: 'ignore', env: ${JSON.stringify(env)} }); setInterval(() => {}, 1000)`], { stdio: 'ignore' })
  const read = (name: string) => (fs.existsSync(path.join(dir, name)) ? Number(fs.readFileSync(path.join(dir, name), 'utf8')) : 0)
  const pids: number[] = []
  try {
    for (let waited = 0; !(read('next') && read('worker')); waited += 50) {
      if (waited > 10_000) throw new Error('the stand-ins did not start')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    pids.push(read('next'), read('worker'))
    build.kill('SIGKILL')
    for (let waited = 0; pids.some(isRunning); waited += 50) {
      if (waited > 8000) throw new Error(`outlived the build: ${pids.filter(isRunning).join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    if (isRunning(build.pid!)) build.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
