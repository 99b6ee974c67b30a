/**
 * Where a build's time goes, from Next's own trace (`.next/trace`, one JSON array of spans per
 * line, times in microseconds). The build-speed bench prints these beside the wall time so a
 * ratio against Docusaurus comes with its reason: which phases are the bundler's, and which are
 * Next's fixed steps that no bundler choice changes.
 */
import fs from 'node:fs'
import path from 'node:path'

interface Span {
  name: string
  /** Start, µs. */
  timestamp: number
  /** µs. */
  duration: number
}

/** Seconds of one build, by phase. Phases may overlap; `otherNext` is Next's time outside all of them. */
export interface BuildPhases {
  /** Bundling, server and browser (Next's "Compiled successfully"), MDX included. */
  compile: number
  /** Next loading each page's server bundle to see whether it is static ("Collecting page data"). */
  pageData: number
  /** Rendering every page to HTML ("Generating static pages"). */
  staticGeneration: number
  /** Copying the rendered site into out/ ("Exporting"). */
  exportToOut: number
  /** Next tracing its own server's files, which a static export never deploys. */
  serverTraces: number
  /** Next's start-up, configuration and manifests: the rest of `next build`. */
  otherNext: number
  /** The build outside `next build`: npm, our pipeline's steps (links, search, markdown, routes, edge). */
  outsideNext: number
}

export const PHASE_LABELS: Record<keyof BuildPhases, string> = {
  compile: 'compile (Rspack, MDX)',
  pageData: 'page data (Next)',
  staticGeneration: 'static generation (Next)',
  exportToOut: 'export to out/ (Next)',
  serverTraces: 'server file traces (Next)',
  otherNext: 'start-up, config, manifests (Next)',
  outsideNext: 'npm and our steps',
}

function readSpans(traceFile: string): Span[] {
  if (!fs.existsSync(traceFile)) throw new Error(`${traceFile} does not exist: the build wrote no Next trace`)
  return fs.readFileSync(traceFile, 'utf8').split('\n').filter(Boolean).flatMap((line) => JSON.parse(line) as Span[])
}

/** Total length of the union of `spans`, so overlapping spans count once. */
function unionSeconds(spans: Span[]): number {
  const sorted = [...spans].sort((a, b) => a.timestamp - b.timestamp)
  let total = 0
  let [start, end] = [-Infinity, -Infinity]
  for (const span of sorted) {
    if (span.timestamp > end) {
      if (end > start) total += end - start
      ;[start, end] = [span.timestamp, span.timestamp + span.duration]
    } else end = Math.max(end, span.timestamp + span.duration)
  }
  if (end > start) total += end - start
  return total / 1e6
}

/**
 * The phases of the build in `projectDir` whose whole run (`npm run build`) took `wallSeconds`.
 * Fails naming the span when Next stops writing one it is read from, so an upgrade cannot turn a
 * phase silently into zero.
 */
export function readBuildPhases(projectDir: string, wallSeconds: number): BuildPhases {
  const spans = readSpans(path.join(projectDir, '.next/trace'))
  const named = (name: string) => {
    const found = spans.filter((span) => span.name === name)
    if (!found.length) throw new Error(`.next/trace in ${projectDir} has no "${name}" span; Next changed its trace`)
    return found
  }
  const [build] = named('next-build')
  const staticGeneration = named('static-generation')
  // Next runs its exporter twice: inside static generation (rendering) and at the end (out/).
  const within = (span: Span, outer: Span) => span.timestamp >= outer.timestamp && span.timestamp + span.duration <= outer.timestamp + outer.duration
  const exportToOut = named('next-export').filter((span) => !staticGeneration.some((outer) => within(span, outer)))
  const phases = {
    compile: named('run-webpack-compiler'),
    pageData: named('static-check'),
    staticGeneration,
    exportToOut,
    serverTraces: named('node-file-trace-build'),
  }
  const seconds = Object.fromEntries(Object.entries(phases).map(([phase, list]) => [phase, unionSeconds(list)])) as Omit<BuildPhases, 'otherNext' | 'outsideNext'>
  const nextSeconds = build.duration / 1e6
  return {
    ...seconds,
    otherNext: Math.max(0, nextSeconds - unionSeconds(Object.values(phases).flat())),
    outsideNext: Math.max(0, wallSeconds - nextSeconds),
  }
}

/**
 * Our build's own time per step, from the table it prints at its end (pipeline/steps/buildSteps.ts):
 * `  content        27.6 s   48%`. Empty when the output holds no table.
 */
export function readStepTimes(stdout: string): Record<string, number> {
  const table = stdout.slice(stdout.lastIndexOf('build: time per step'))
  const steps: Record<string, number> = {}
  for (const [, name, seconds] of table.matchAll(/^ {2}(\S(?:.*?\S)?) +(\d+(?:\.\d+)?) s\b/gm)) if (name !== 'total') steps[name] = Number(seconds)
  return steps
}
