/**
 * @jest-environment node
 *
 * The build bench's phases, read from a trace shaped as Next writes `.next/trace`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { readBuildPhases, readStepTimes } from '../../bench/buildPhases'
import { formatPhaseTimes } from '../../pipeline/steps/buildSteps'

const s = (seconds: number) => seconds * 1e6
const span = (name: string, start: number, length: number) => ({ name, timestamp: s(start), duration: s(length), id: 1, tags: {} })

const made: string[] = []
const tempProject = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-phases-'))
  made.push(dir)
  return dir
}
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

function projectWithTrace(lines: object[][]): string {
  const dir = tempProject()
  fs.mkdirSync(path.join(dir, '.next'))
  fs.writeFileSync(path.join(dir, '.next/trace'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
  return dir
}

const BUILD = [
  [span('next-build', 100, 20), span('run-webpack-compiler', 101, 10)],
  // Two compiler spans that overlap count once.
  [span('run-webpack-compiler', 105, 3), span('static-check', 111, 2)],
  [span('node-file-trace-build', 113, 1), span('static-generation', 113.5, 4)],
  // Next's exporter runs inside static generation, and again at the end into out/.
  [span('next-export', 113.6, 3.8), span('next-export', 118, 1)],
]

test("splits a build into Next's phases, counting overlapping spans once and only the final export as the export to out/", () => {
  const phases = readBuildPhases(projectWithTrace(BUILD), 25)
  expect(phases.compile).toBeCloseTo(10)
  expect(phases.pageData).toBeCloseTo(2)
  expect(phases.serverTraces).toBeCloseTo(1)
  expect(phases.staticGeneration).toBeCloseTo(4)
  expect(phases.exportToOut).toBeCloseTo(1)
  // next-build is 20 s; the phases cover 101-113, 113-117.5 and 118-119: 17.5 s.
  expect(phases.otherNext).toBeCloseTo(2.5)
  expect(phases.outsideNext).toBeCloseTo(5)
})

test('names the span Next no longer writes, instead of reading a phase as zero', () => {
  const withoutTraces = BUILD.map((line) => line.filter((event) => event.name !== 'node-file-trace-build'))
  expect(() => readBuildPhases(projectWithTrace(withoutTraces), 25)).toThrow(/no "node-file-trace-build" span; Next changed its trace/)
})

test('says when the build wrote no trace', () => {
  const dir = tempProject()
  expect(() => readBuildPhases(dir, 1)).toThrow(/\.next\/trace does not exist/)
})

test("our steps' times are read back from the table the build prints, and a log without one gives none", () => {
  const printed = formatPhaseTimes({ phases: [{ name: 'content', seconds: 27.64 }, { name: 'next build', seconds: 19.1 }, { name: 'search', seconds: 0.04 }] })
  expect(readStepTimes(`build: next build…\n${printed}\n`)).toEqual({ content: 27.6, 'next build': 19.1, search: 0 })
  expect(readStepTimes('next build failed (exit 1)')).toEqual({})
})
