/** @jest-environment node */
/**
 * The build's caches that keep one value under what it was made from (the navigation, the pages'
 * dates, the compiler's packages) share one reading: the value is taken only under its own key,
 * and a file that is missing, damaged or of another key gives nothing, so the value is made again.
 */
import fs from 'node:fs'
import path from 'node:path'
import { keepUnder, keptUnder } from '../../pipeline/files'
import { tempSite } from '../fixtures/tempSite'

test('a kept value is taken under its key only; none, another key, a damaged file or an older format give nothing', () => {
  const file = path.join(tempSite('kept-under-'), '.cache/kept.json')
  expect(keptUnder(file, 'k1')).toBeNull()
  keepUnder(file, 'k1', { maps: { a: 'x' } })
  expect(keptUnder(file, 'k1')).toEqual({ maps: { a: 'x' } })
  expect(keptUnder(file, 'k2')).toBeNull()
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, -3))
  expect(keptUnder(file, 'k1')).toBeNull()
  // The navigation's record before this format: its key under another name.
  fs.writeFileSync(file, JSON.stringify({ inputs: 'k1', maps: {}, fragments: [] }))
  expect(keptUnder(file, 'k1')).toBeNull()
})
