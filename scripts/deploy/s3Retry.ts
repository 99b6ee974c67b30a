/**
 * How the deploy repeats an S3 request that failed for a reason that may pass: the server answered
 * 5xx (InternalError, SlowDown…) or 429, or the connection failed. The AWS SDK retries such errors
 * itself, but never for a request whose body is a stream, which is how every file goes up; so each
 * upload is retried here, with a fresh stream per attempt. Any other failure (access denied, no
 * such bucket) is final at once. After the last attempt the error names the request and its key.
 */
import type { S3Client } from '@aws-sdk/client-s3'

export const S3_ATTEMPTS = 5
/** The wait after failed attempt n: 2^n × 100 ms plus up to 100 ms of jitter, at most 5 minutes (the AWS SDK's own backoff). */
export const BACKOFF_CAP_MS = 300_000

/** The wait after failed attempt `attempt` (1 for the first), in milliseconds. `random` returns [0, 1). */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(BACKOFF_CAP_MS, 2 ** attempt * 100 + random() * 100)
}

/** Node's codes for a connection that failed or was cut: the request may not have arrived. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])

export class S3RequestError extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
    cause: unknown
  ) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)
    super(`${what} failed${attempts > 1 ? ` ${attempts} times` : ''}: ${reason}`, { cause })
    this.name = 'S3RequestError'
  }
}

export function isTransientS3Error(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { $metadata, code, name } = error as { $metadata?: { httpStatusCode?: number }; code?: string; name?: string }
  const status = $metadata?.httpStatusCode
  if (status !== undefined) return status >= 500 || status === 429
  return NETWORK_CODES.has(code ?? '') || name === 'TimeoutError'
}

/**
 * An error as this realm's Error, with the original's name, message and own fields (code,
 * $metadata). Node's socket errors are made in Node's own realm; under jest's vm they are not
 * `instanceof Error` here, and the SDK's retry then wraps them into a new Error that keeps only
 * their text, so neither its retry nor isTransientS3Error could tell a cut connection.
 */
function inThisRealm(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error
  const { name, message } = error as { name?: unknown; message?: unknown }
  const copy = Object.assign(new Error(typeof message === 'string' ? message : String(error), { cause: error }), error)
  if (typeof name === 'string') copy.name = name
  return copy
}

/** Adds to an S3 client the step that makes each failed request's error one of this realm (inThisRealm). */
export function withErrorsOfThisRealm(client: S3Client): S3Client {
  // The type of the stack's last overload of add(): a deserialize step's middleware.
  const middleware: Parameters<S3Client['middlewareStack']['add']>[0] = (next) => async (args) => {
    try {
      return await next(args)
    } catch (error) {
      throw inThisRealm(error)
    }
  }
  // Innermost (the last step, lowest priority): the request handler's errors pass through it before any retry sees them.
  client.middlewareStack.add(middleware, { step: 'deserialize', priority: 'low', name: 'errorsOfThisRealm' })
  return client
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Runs `request` up to S3_ATTEMPTS times while it fails transiently, waiting longer after each failure. */
export async function withS3Retries<T>(what: string, request: () => Promise<T>, wait: (ms: number) => Promise<void> = sleep): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request()
    } catch (error) {
      if (!isTransientS3Error(error) || attempt >= S3_ATTEMPTS) throw new S3RequestError(what, attempt, error)
      await wait(backoffDelayMs(attempt))
    }
  }
}
