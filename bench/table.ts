import fs from 'node:fs'
import path from 'node:path'

/** One measured figure, with how it was measured. */
export interface Figure {
  group: string
  name: string
  value: number
  unit: string
  /** Present when the figure is a median over runs. */
  min?: number
  max?: number
  runs?: number
  method: string
}

export function printTable(figures: Figure[]): void {
  const rows = figures.map((figure) => [
    figure.group,
    figure.name,
    `${format(figure.value)} ${figure.unit}`,
    figure.runs ? `${format(figure.min!)}–${format(figure.max!)} (${figure.runs} runs)` : '',
    figure.method,
  ])
  const header = ['group', 'figure', 'value', 'min–max', 'method']
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()
  console.log(line(header))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const row of rows) console.log(line(row))
}

function format(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-GB')
  return value >= 100 ? Math.round(value).toLocaleString('en-GB') : value.toFixed(value >= 10 ? 1 : 2)
}

/** Merges figures into bench/results.json by group+name, so partial runs keep the rest. */
export function saveResults(figures: Figure[], file = path.resolve('bench/results.json')): void {
  const previous: { figures?: Figure[] } = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
  const key = (figure: Figure) => `${figure.group}\u0000${figure.name}`
  const merged = new Map((previous.figures ?? []).map((figure) => [key(figure), figure]))
  for (const figure of figures) merged.set(key(figure), figure)
  fs.writeFileSync(file, JSON.stringify({ updated: new Date().toISOString(), figures: [...merged.values()] }, null, 2) + '\n')
}

/**
 * Several runs of one benchmark as one set of figures: each figure's median over the runs that
 * measured it, with their range. A single run's latency tail moves a lot on a busy machine; the
 * median of runs is what we quote.
 */
export function medianOverRuns(runs: Figure[][]): Figure[] {
  const byName = new Map<string, { first: Figure; values: number[] }>()
  for (const run of runs) {
    for (const figure of run) {
      const entry = byName.get(figure.name) ?? { first: figure, values: [] }
      entry.values.push(figure.value)
      byName.set(figure.name, entry)
    }
  }
  return [...byName.values()].map(({ first, values }) => ({
    ...first,
    ...medianWithRange(values, 2),
    method: `${first.method}; median of ${values.length} run${values.length === 1 ? '' : 's'}`,
  }))
}

/** A figure's value over several runs: their median and range, rounded to `digits` decimals. */
export function medianWithRange(values: number[], digits: number): Pick<Figure, 'value' | 'min' | 'max' | 'runs'> {
  return { value: +median(values).toFixed(digits), min: +Math.min(...values).toFixed(digits), max: +Math.max(...values).toFixed(digits), runs: values.length }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}
