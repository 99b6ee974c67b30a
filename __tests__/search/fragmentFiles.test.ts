/** @jest-environment node */
import { MAX_GROUPED_RECORDS, RECORDS_PER_FILE, maxFragmentsFor } from '../../lib/search/fragmentFiles'

/** The records per file Pagefind makes of `maxFragments` (its group size: records / files, rounded up). */
const perFile = (records: number, maxFragments: number) => Math.ceil(records / maxFragments)

test('a small index gets files of at most RECORDS_PER_FILE records, and no more files than that needs', () => {
  for (let records = RECORDS_PER_FILE + 1; records <= MAX_GROUPED_RECORDS; records += 7) {
    const files = maxFragmentsFor(records)
    expect(files).toBeDefined()
    expect(perFile(records, files as number)).toBeLessThanOrEqual(RECORDS_PER_FILE)
    expect(perFile(records, (files as number) - 1)).toBeGreaterThan(RECORDS_PER_FILE)
  }
})

test('an index too small to group, or so large that naming every record\'s file would cost readers too much, keeps one file per record', () => {
  expect(maxFragmentsFor(1)).toBeUndefined()
  expect(maxFragmentsFor(RECORDS_PER_FILE)).toBeUndefined()
  expect(maxFragmentsFor(MAX_GROUPED_RECORDS + 1)).toBeUndefined()
  expect(maxFragmentsFor(14000)).toBeUndefined()
})
