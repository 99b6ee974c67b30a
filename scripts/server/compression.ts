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

const gzipped = new Map<string, { version: string | number; body: Buffer }>()

/** `body` gzipped, compressed once per version of a file (its time, or an object's ETag). */
export function gzipOnce(file: string, version: string | number, body: Buffer): Buffer {
  const cached = gzipped.get(file)
  if (cached && cached.version === version) return cached.body
  const compressed = zlib.gzipSync(body)
  gzipped.set(file, { version, body: compressed })
  return compressed
}
