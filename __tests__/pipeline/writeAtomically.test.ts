/** @jest-environment node */
/**
 * The build writes its records and files through writeAtomically (pipeline/files.ts), which encodes
 * a text a piece at a time: every character must come out as one whole encoding would have it,
 * also where a piece ends inside a character's bytes.
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeAtomically } from '../../pipeline/files'
import { tempSite } from '../fixtures/tempSite'

test('a long text of one-, two-, three- and four-byte characters is written as its whole UTF-8 encoding, wherever a piece ends', () => {
  const dir = tempSite('write-atomically-')
  const file = path.join(dir, 'nested/record.json')
  // Each run of ASCII shifts the next character across the places a 64 kB piece may end.
  const parts: string[] = []
  for (let i = 0; i < 6000; i++) parts.push('a'.repeat(i % 61), 'é', '日', '😀', i % 997 === 0 ? '\ud800' : '')
  const text = parts.join('')
  expect(Buffer.byteLength(text)).toBeGreaterThan(3 * 64 * 1024)
  writeAtomically(file, text)
  expect(fs.readFileSync(file).equals(Buffer.from(text, 'utf8'))).toBe(true)
  writeAtomically(file, '')
  expect(fs.readFileSync(file).length).toBe(0)
  // No partial file stays beside it.
  expect(fs.readdirSync(path.dirname(file))).toEqual(['record.json'])
})
