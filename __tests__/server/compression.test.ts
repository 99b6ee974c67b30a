/** @jest-environment node */
import zlib from 'node:zlib'
import { gzipOnce, shouldGzip } from '../../scripts/server/compression'

test('text of 1,000 bytes or more goes gzipped to a client that accepts gzip, as CloudFront sends it', () => {
  expect(shouldGzip('text/javascript; charset=utf-8', 1000, 'gzip, deflate, br')).toBe(true)
  expect(shouldGzip('application/json', 5000, 'gzip')).toBe(true)
  expect(shouldGzip('text/javascript', 999, 'gzip')).toBe(false)
  expect(shouldGzip('text/javascript', 5000, undefined)).toBe(false)
  expect(shouldGzip('text/javascript', 5000, 'br')).toBe(false)
})

test('binary files go as they are (Pagefind gzips its index files itself)', () => {
  expect(shouldGzip('application/octet-stream', 50000, 'gzip')).toBe(false)
  expect(shouldGzip('image/png', 50000, 'gzip')).toBe(false)
})

test('a file is compressed once per version', () => {
  const body = Buffer.from('search '.repeat(500))
  const first = gzipOnce('/tmp/a.js', 1, body)
  expect(zlib.gunzipSync(first).equals(body)).toBe(true)
  expect(gzipOnce('/tmp/a.js', 1, Buffer.from('changed'))).toBe(first)
  expect(zlib.gunzipSync(gzipOnce('/tmp/a.js', 2, Buffer.from('changed'))).toString()).toBe('changed')
})
