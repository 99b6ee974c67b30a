/**
 * The processes the build starts for Next (`next build`, the renderer) run as production, with the
 * heap asked for, and with Next's telemetry off whatever the caller's environment: an ops pipeline
 * running `npm run build:prod` sets nothing, and Next would otherwise report the build to Vercel.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { isRunning } from '../../pipeline/mainProcess'
import { productionNodeArgs, runInProduction } from '../../pipeline/render/runInProduction'

describe('runInProduction', () => {
  let dir: string
  let saved: string | undefined
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-in-production-'))
    saved = process.env.NEXT_TELEMETRY_DISABLED
    delete process.env.NEXT_TELEMETRY_DISABLED
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.NEXT_TELEMETRY_DISABLED
    else process.env.NEXT_TELEMETRY_DISABLED = saved
    fs.rmSync(dir, { recursive: true, force: true })
  })

  /** What the started process saw: three of its variables, and its heap limit. */
  const seen = async (heapMb: number | null) => {
    const file = path.join(dir, 'seen.json')
    const script = `require('fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify({ telemetry: process.env.NEXT_TELEMETRY_DISABLED ?? null, nodeEnv: process.env.NODE_ENV, heapMb: Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20), extra: process.env.EXTRA ?? null }))`
    await runInProduction('probe', ['-e', script], { cwd: dir, heapMb, env: { EXTRA: 'given' } })
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { telemetry: string | null; nodeEnv: string; heapMb: number; extra: string | null }
  }

  it("turns Next's telemetry off, runs as production and passes the caller's variables", async () => {
    const probe = await seen(null)
    expect(probe.telemetry).toBe('1')
    expect(probe.nodeEnv).toBe('production')
    expect(probe.extra).toBe('given')
  })

  it('gives the process the heap asked for', async () => {
    const probe = await seen(200)
    // V8 adds its young generation's room to the old generation's limit.
    expect(probe.heapMb).toBeGreaterThanOrEqual(200)
    expect(probe.heapMb).toBeLessThan(300)
  })

  it('names the process that failed', async () => {
    await expect(runInProduction('the probe', ['-e', 'process.exit(3)'], { cwd: dir, heapMb: null })).rejects.toThrow('the probe failed (exit 3)')
  })

  // A build killed outright (SIGKILL: no handler runs) left `next build` writing into .next/ and out/ under the next build.
  it('ends the process, and a worker it forks, once the build that started it is killed outright', async () => {
    const read = (name: string) => (fs.existsSync(path.join(dir, name)) ? Number(fs.readFileSync(path.join(dir, name), 'utf8')) : 0)
    const record = (name: string) => `require('node:fs').writeFileSync(${JSON.stringify(path.join(dir, name))}, String(process.pid))`
    // Stands for `next build` (started as the build starts it) and a worker it forks (Node's arguments inherited, as fork does).
    const worker = path.join(dir, 'worker.cjs')
    fs.writeFileSync(worker, `${record('worker')}; setInterval(() => {}, 1000)`)
    const next = `require('node:child_process').fork(${JSON.stringify(worker)}, [], { stdio: 'ignore' }); ${record('next')}; setInterval(() => {}, 1000)`
    const build = spawn(process.execPath, ['-e', `require('node:child_process').spawn(process.execPath, ${JSON.stringify(productionNodeArgs(['-e', next]))}, { stdio: 'ignore' }); setInterval(() => {}, 1000)`], { stdio: 'ignore' })
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
      if (build.pid && isRunning(build.pid)) build.kill('SIGKILL')
    }
  }, 30_000)
})
