/** @jest-environment node */
/**
 * The build's caches that keep one value under what it was made from (the navigation, the pages'
 * dates, the compiler's packages) share one reading: the value is taken only under its own key,
 * and a file that is missing, damaged or of another key gives nothing, so the value is made again.
 */
import fs from 'node:fs'
import path from 'node:path'
import { keepUnder, keptUnder, readChecked, readJsonObject, readText, writeChecked } from '../../pipeline/files'
import { tempSite } from '../fixtures/tempSite'

test('a kept value is taken under its key only; none, another key, a damaged file (even one that still parses) or an older format give nothing', () => {
  const file = path.join(tempSite('kept-under-'), '.cache/kept.json')
  expect(keptUnder(file, 'k1')).toBeNull()
  keepUnder(file, 'k1', { maps: { a: 'x' } })
  expect(keptUnder(file, 'k1')).toEqual({ maps: { a: 'x' } })
  expect(keptUnder(file, 'k2')).toBeNull()
  const whole = fs.readFileSync(file, 'utf8')
  fs.writeFileSync(file, whole.slice(0, -3))
  expect(keptUnder(file, 'k1')).toBeNull()
  // Damaged so that it still parses, under its own key: not taken either (it would be shipped).
  fs.writeFileSync(file, whole.replace('"x"', '"y"'))
  expect(keptUnder(file, 'k1')).toBeNull()
  // The value alone, as written before records were checked.
  fs.writeFileSync(file, JSON.stringify({ key: 'k1', value: { maps: { a: 'x' } } }))
  expect(keptUnder(file, 'k1')).toBeNull()
  // The navigation's record before this format: its key under another name.
  fs.writeFileSync(file, JSON.stringify({ inputs: 'k1', maps: {}, fragments: [] }))
  expect(keptUnder(file, 'k1')).toBeNull()
})

test('a record reads back the text it was written with, whether it is all ASCII (read as bytes) or not', () => {
  const dir = tempSite('read-text-')
  const value = { title: 'Café — 日本語 🚀', plain: 'ascii only' }
  keepUnder(path.join(dir, 'mixed.json'), 'k', value)
  expect(keptUnder(path.join(dir, 'mixed.json'), 'k')).toEqual(value)
  keepUnder(path.join(dir, 'ascii.json'), 'k', { plain: 'ascii only' })
  expect(keptUnder(path.join(dir, 'ascii.json'), 'k')).toEqual({ plain: 'ascii only' })
  fs.writeFileSync(path.join(dir, 'page.md'), '\uFEFF# Überblick\n')
  expect(readText(path.join(dir, 'page.md'))).toBe(fs.readFileSync(path.join(dir, 'page.md'), 'utf8'))
})

test('a checked file reads back only the text it was written with: cut short, changed at the same length, or of another format, it gives nothing', () => {
  const file = path.join(tempSite('checked-'), '.cache/kept.md')
  expect(readChecked(file)).toBeNull()
  writeChecked(file, '# Café\n\nA body.\n')
  expect(readChecked(file)).toBe('# Café\n\nA body.\n')
  const whole = fs.readFileSync(file, 'utf8')
  fs.writeFileSync(file, whole.slice(0, -2))
  expect(readChecked(file)).toBeNull()
  fs.writeFileSync(file, whole.replace('body', 'bodz'))
  expect(readChecked(file)).toBeNull()
  fs.writeFileSync(file, '# Café\n\nA body.\n')
  expect(readChecked(file)).toBeNull()
  // A transpiled module kept this way still imports: its first line is a comment.
  expect(whole.startsWith('// ')).toBe(true)
})

test("a step's record is a JSON object or nothing: none, damaged, null, a list or a number give nothing", () => {
  const dir = tempSite('json-object-')
  const file = path.join(dir, 'record.json')
  expect(readJsonObject(file)).toBeNull()
  for (const text of ['{"a": ', 'null', '[1]', '5', '"text"']) {
    fs.writeFileSync(file, text)
    expect(readJsonObject(file)).toBeNull()
  }
  fs.writeFileSync(file, '{"a": 1}')
  expect(readJsonObject(file)).toEqual({ a: 1 })
})
