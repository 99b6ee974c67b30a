/** @jest-environment node */
/**
 * One build at a time in a project: a second build started while one runs stops at once, naming
 * the running one; a lock left by a build that was killed is taken over; a build's lock goes when
 * its process ends.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { BuildBusyError, holdBuildLock } from '../../pipeline/steps/buildLock'
import { CACHE_PATHS } from '../../pipeline/steps/paths'
import { tempSite } from '../fixtures/tempSite'

const ROOT = path.resolve(__dirname, '../..')
const lockOf = (root: string) => path.join(root, CACHE_PATHS.buildLock)
const holding = (root: string, pid: number) => fs.writeFileSync(lockOf(root), JSON.stringify({ pid, started: '2026-12-05T01:00:00.000Z' }))

test('a build started while another runs stops, naming the running one', () => {
  const root = tempSite('lock-busy-', { '.cache/': '' })
  // The test runner's parent process: running, and not this one.
  holding(root, process.ppid)
  expect(() => holdBuildLock(root)).toThrow(BuildBusyError)
  expect(() => holdBuildLock(root)).toThrow(`another build is running in this project (process ${process.ppid}, started 2026-12-05T01:00:00.000Z)`)
})

test('a lock left by a build that is gone is taken over', () => {
  const root = tempSite('lock-stale-', { '.cache/': '' })
  const gone = spawnSync(process.execPath, ['-e', '0']).pid as number
  holding(root, gone)
  holdBuildLock(root)
  expect(JSON.parse(fs.readFileSync(lockOf(root), 'utf8')).pid).toBe(process.pid)
  fs.rmSync(lockOf(root))
  // A damaged lock's 0 names the process group, which a check of it found running.
  holding(root, 0)
  holdBuildLock(root)
  expect(JSON.parse(fs.readFileSync(lockOf(root), 'utf8')).pid).toBe(process.pid)
  fs.rmSync(lockOf(root))
})

test("a build's lock goes when its process ends, and the next build takes it", () => {
  const root = tempSite('lock-exit-')
  const script = `require(${JSON.stringify(path.join(ROOT, 'pipeline/steps/buildLock.ts'))}).holdBuildLock(${JSON.stringify(root)}); console.log(require('node:fs').existsSync(${JSON.stringify(lockOf(root))}))`
  expect(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe('true')
  expect(fs.existsSync(lockOf(root))).toBe(false)
})
