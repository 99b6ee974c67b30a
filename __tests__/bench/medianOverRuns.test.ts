/**
 * @jest-environment node
 *
 * How the bench turns several runs of one benchmark into the figures it quotes.
 */
import { medianOverRuns, type Figure } from '../../bench/table'

const figure = (name: string, value: number): Figure => ({ group: 'search', name, value, unit: 'ms', method: 'timed in the page' })

describe('medianOverRuns', () => {
  it('quotes each figure as the median of its runs, with their range', () => {
    const merged = medianOverRuns([
      [figure('p95', 31), figure('median', 12)],
      [figure('p95', 22), figure('median', 14)],
      [figure('p95', 27), figure('median', 11)],
    ])
    expect(merged).toEqual([
      { ...figure('p95', 27), min: 22, max: 31, runs: 3, method: 'timed in the page; median of 3 runs' },
      { ...figure('median', 12), min: 11, max: 14, runs: 3, method: 'timed in the page; median of 3 runs' },
    ])
  })

  it('counts only the runs that measured a figure', () => {
    const merged = medianOverRuns([[figure('p95', 30), figure('typed p95', 20)], [figure('p95', 40)]])
    expect(merged.find((f) => f.name === 'p95')).toMatchObject({ value: 35, runs: 2 })
    expect(merged.find((f) => f.name === 'typed p95')).toMatchObject({ value: 20, min: 20, max: 20, runs: 1, method: 'timed in the page; median of 1 run' })
  })
})
