/**
 * The processes the build starts for Next (`next build`, the renderer) run as production, with the
 * heap asked for, and with Next's telemetry off whatever the caller's environment: an ops pipeline
 * running `npm run build:prod` sets nothing, and Next would otherwise report the build to Vercel.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runInProduction } from '../../pipeline/render/runInProduction'

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
    await runInProduction('probe', process.execPath, ['-e', script], { cwd: dir, heapMb, env: { EXTRA: 'given' } })
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
    await expect(runInProduction('the probe', process.execPath, ['-e', 'process.exit(3)'], { cwd: dir, heapMb: null })).rejects.toThrow('the probe failed (exit 3)')
  })
})
