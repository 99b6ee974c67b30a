/**
 * A real S3 API on 127.0.0.1 for the deploy's tests and benchmark: s3rver on a free port, storing
 * in a folder of its own, with every request it answers recorded (method and object key), so a
 * test counts what a deploy wrote on the server's side.
 *
 * s3rver runs in a process of its own (scripts/deploy/localS3Server.ts): the process that starts
 * it (a test, the bench) runs other work on its own event loop, such as the bench's memory
 * sampling, which would stall every request in flight. Listings are answered by
 * scripts/deploy/localS3Listing.ts, since s3rver's own are wrong past 1,000 keys.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import { s3ClientFor } from './s3Bucket'

export interface LocalS3Request {
  method: string
  path: string
  bytes: number
  /** For a listing, the prefix it lists under ('' for the whole bucket). */
  listPrefix?: string
}

/** Requests with this method and path (`/<bucket>/<key>`) are answered InternalError (500), or with `cut` their connection is closed unanswered, and not stored: the first `times` of them, or all. */
export interface LocalS3Refusal {
  method: string
  path: string
  times?: number
  cut?: boolean
}

/** What the server's process tells this one, and what this one tells it (localS3Server.ts). */
export type ServerMessage = { type: 'ready'; port: number } | { type: 'request'; request: LocalS3Request } | { type: 'failure'; failure: string } | { type: 'settled'; id: number }
export type ParentMessage = { type: 'refuse'; refusal: LocalS3Refusal | null; id: number } | { type: 'settle'; id: number } | { type: 'stop' }

export interface LocalS3 {
  endpoint: string
  client: S3Client
  /** Every request reported so far: method, path (`/<bucket>/<key>`) and the body's length. Complete up to the last `settled()`. */
  requests: LocalS3Request[]
  /** Called on each request as the server reports it. */
  onRequest: ((request: LocalS3Request) => void) | null
  /** Each request the server failed on itself (5xx): method, path and the error, so a failure has its cause. */
  failures: string[]
  /** Resolves once `requests` and `failures` hold every request the server has received. */
  settled(): Promise<void>
  /** How many requests the server has received, once `requests` holds them all: where a step's own requests will start. */
  requestsSoFar(): Promise<number>
  /** From now on, refuse the requests `refusal` names; null: refuse none. */
  refuse(refusal: LocalS3Refusal | null): Promise<void>
  /** The credentials the server accepts, for a child process's environment. */
  env: Record<string, string>
  createBucket(name: string): Promise<void>
  stop(): Promise<void>
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' }
const ROOT = path.resolve(__dirname, '../..')

export async function startLocalS3(): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'local-s3-'))
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'localS3Server.ts'), directory], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const requests: LocalS3Request[] = []
  const failures: string[] = []
  const waiting = new Map<number, () => void>()
  let lastId = 0
  const local = { requests, failures, onRequest: null as LocalS3['onRequest'] }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the local S3 server exited (${code}) before it listened`)))
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') resolve(message.port)
      else if (message.type === 'request') {
        requests.push(message.request)
        local.onRequest?.(message.request)
      } else if (message.type === 'failure') failures.push(message.failure)
      else waiting.get(message.id)?.()
    })
  })
  const ask = (message: { type: 'refuse'; refusal: LocalS3Refusal | null } | { type: 'settle' }) =>
    new Promise<void>((resolve) => {
      const id = ++lastId
      waiting.set(id, () => {
        waiting.delete(id)
        resolve()
      })
      child.send({ ...message, id } satisfies ParentMessage)
    })
  const endpoint = `http://127.0.0.1:${port}`
  const client = s3ClientFor({ endpoint, credentials: { accessKeyId: CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.AWS_SECRET_ACCESS_KEY } })
  return Object.assign(local, {
    endpoint,
    client,
    env: CREDENTIALS,
    settled: () => ask({ type: 'settle' }),
    requestsSoFar: () => ask({ type: 'settle' }).then(() => requests.length),
    refuse: (refusal: LocalS3Refusal | null) => ask({ type: 'refuse', refusal }),
    async createBucket(name: string) {
      await client.send(new CreateBucketCommand({ Bucket: name }))
    },
    async stop() {
      client.destroy()
      if (child.exitCode === null) child.send({ type: 'stop' } satisfies ParentMessage)
      await exited
      fs.rmSync(directory, { recursive: true, force: true })
    },
  })
}
