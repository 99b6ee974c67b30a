/**
 * A real S3 API on 127.0.0.1 for the deploy's tests and benchmark: s3rver on a free port, storing
 * in a folder of its own, with every request it answers recorded (method and object key), so a
 * test counts what a deploy wrote on the server's side.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import { s3ClientFor } from './s3Bucket'

export interface LocalS3Request {
  method: string
  path: string
  bytes: number
}

export interface LocalS3 {
  endpoint: string
  client: S3Client
  /** Every request so far: method, path (`/<bucket>/<key>`) and the body's length. */
  requests: LocalS3Request[]
  /** Called on each request as it arrives. */
  onRequest: ((request: LocalS3Request) => void) | null
  /** The credentials the server accepts, for a child process's environment. */
  env: Record<string, string>
  createBucket(name: string): Promise<void>
  stop(): Promise<void>
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' }

export async function startLocalS3(): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'local-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const local: Partial<LocalS3> & { requests: LocalS3['requests']; onRequest: LocalS3['onRequest'] } = { requests: [], onRequest: null }
  // First in the chain, so every request is seen, answered or not.
  ;(server as unknown as { middleware: Array<(ctx: { method: string; path: string; request: { length?: number } }, next: () => Promise<void>) => Promise<void>> }).middleware.unshift(async (ctx, next) => {
    const request = { method: ctx.method, path: decodeURIComponent(ctx.path), bytes: ctx.request.length ?? 0 }
    local.requests.push(request)
    local.onRequest?.(request)
    await next()
  })
  const { port } = (await server.run()) as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  const client = s3ClientFor({ endpoint, credentials: { accessKeyId: CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.AWS_SECRET_ACCESS_KEY } })
  return Object.assign(local, {
    endpoint,
    client,
    env: CREDENTIALS,
    async createBucket(name: string) {
      await client.send(new CreateBucketCommand({ Bucket: name }))
    },
    async stop() {
      client.destroy()
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }) as LocalS3
}
