/**
 * As CloudFront does with `compress: true` (infra/lib/site-stack.ts): text of 1,000 bytes or more
 * goes gzipped to a client that accepts it. The local server and the search benchmark both answer
 * this way, so what they send, and what the benchmarks count, is what production sends.
 */
import zlib from 'node:zlib'

const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg\+xml)/

/** Whether a response of `contentType` and `length` bytes goes gzipped to a client that sent `acceptEncoding`. */
export function shouldGzip(contentType: string, length: number, acceptEncoding: string | string[] | undefined): boolean {
  return COMPRESSIBLE.test(contentType) && length >= 1000 && /\bgzip\b/.test(String(acceptEncoding ?? ''))
}

const gzipped = new Map<string, { mtimeMs: number; body: Buffer }>()

/** `body` gzipped, compressed once per file version. */
export function gzipOnce(file: string, mtimeMs: number, body: Buffer): Buffer {
  const cached = gzipped.get(file)
  if (cached && cached.mtimeMs === mtimeMs) return cached.body
  const compressed = zlib.gzipSync(body)
  gzipped.set(file, { mtimeMs, body: compressed })
  return compressed
}
