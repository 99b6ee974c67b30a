/**
 * The local S3 server's own process (started by scripts/deploy/localS3.ts, which explains why it
 * is a process of its own): s3rver on 127.0.0.1, port chosen by the system, storing in the folder
 * named by its argument. It tells its parent, over the IPC channel, its port, each request as it
 * arrives, and each request it failed on; it answers InternalError to the requests its parent's
 * rule names (or cuts their connection); it stops when told to.
 */
import S3rver from 's3rver'
import type { LocalS3Refusal, LocalS3Request, ServerMessage, ParentMessage } from './localS3'
import { localS3Listing, type ListingQuery, type StoredMetadata } from './localS3Listing'

const send = (message: ServerMessage) => process.send!(message)

async function main() {
  const directory = process.argv[2]
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const getMetadata: StoredMetadata = (bucket, key) => (server as unknown as { store: { getMetadata: StoredMetadata } }).store.getMetadata(bucket, key)
  const listing = localS3Listing(directory, getMetadata)
  /** Keys a conditional write is creating: the check and the mark happen in one turn of this thread. */
  const creating = new Set<string>()
  let refusal: (LocalS3Refusal & { refused: number }) | null = null
  ;(server as unknown as NodeJS.EventEmitter).on('error', (error: Error & { code?: string; status?: number }, ctx: { method: string; path: string }) => {
    // Koa reports every error here; an S3 error below 500 is an answer (NoSuchKey…), not a failure.
    if (error.status !== undefined && error.status < 500) return
    send({ type: 'failure', failure: `${ctx.method} ${decodeURIComponent(ctx.path)}: ${error.code ?? error.name} ${error.message}` })
  })
  // First in the chain, so every request is seen, answered or not.
  ;(server as unknown as { middleware: Array<(ctx: { method: string; path: string; get(header: string): string; status: number; query: ListingQuery & { 'list-type'?: string; delimiter?: string }; req: AsyncIterable<unknown> & { socket: { destroy(): void } }; request: { length?: number }; type: string; body: unknown }, next: () => Promise<void>) => Promise<void>> }).middleware.unshift(async (ctx, next) => {
    const request: LocalS3Request = { method: ctx.method, path: decodeURIComponent(ctx.path), bytes: ctx.request.length ?? 0, ...(ctx.query['list-type'] && { listPrefix: ctx.query.prefix ?? '' }) }
    send({ type: 'request', request })
    if (refusal && request.method === refusal.method && request.path === refusal.path && (refusal.times === undefined || refusal.refused < refusal.times)) {
      refusal.refused++
      // As a server does that closes an idle connection just as a request arrives on it.
      if (refusal.cut) return ctx.req.socket.destroy()
      // The body is read first, so the client hears the answer, not a cut connection.
      for await (const _ of ctx.req);
      // Not an S3 error: s3rver answers it as InternalError (500), as when its own storage fails.
      throw new Error('refused, as the test asked')
    }
    const [, bucket = '', key = ''] = /^\/([^/]+)\/?(.*)$/.exec(request.path) ?? []
    if (request.method === 'GET' && bucket && !key && ctx.query['list-type'] === '2' && !ctx.query.delimiter) {
      const answer = await listing.list(bucket, ctx.query)
      if (answer !== null) {
        ctx.type = 'application/xml'
        ctx.body = answer
        return
      }
    }
    const writes = request.method !== 'GET' && request.method !== 'HEAD'
    // S3's conditional writes (If-None-Match: *, If-Match: <ETag>), which s3rver ignores: of two such writes of a key, one gets it.
    const ifMatch = ctx.get('if-match')
    const creates = request.method === 'PUT' && key !== '' && (ctx.get('if-none-match') === '*' || ifMatch !== '')
    if (creates) {
      const id = `${bucket}/${key}`
      // Marked before the object is looked at, in one turn of this thread: a second conditional write of the key meanwhile fails.
      const busy = creating.has(id)
      if (!busy) creating.add(id)
      const stored = busy ? null : await getMetadata(bucket, key).catch(() => null)
      const fails = busy || (ifMatch === '' ? Boolean(stored) : !stored || stored.etag.replace(/"/g, '') !== ifMatch.replace(/"/g, ''))
      if (fails) {
        if (!busy) creating.delete(id)
        for await (const _ of ctx.req);
        ctx.status = 412
        ctx.type = 'application/xml'
        ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>'
        return
      }
    }
    if (writes) listing.written(bucket)
    try {
      await next()
    } finally {
      if (creates) creating.delete(`${bucket}/${key}`)
    }
    if (writes) listing.written(bucket)
  })
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'refuse') refusal = message.refusal && { ...message.refusal, refused: 0 }
    // Messages go in order, so once this answer arrives every earlier request has been reported.
    if (message.type === 'refuse' || message.type === 'settle') send({ type: 'settled', id: message.id })
    if (message.type === 'stop') void server.close().then(() => process.exit(0))
  })
  // The parent gone (a test run killed), nothing would ever stop this server.
  process.on('disconnect', () => process.exit(0))
  const { port } = (await server.run()) as { port: number }
  send({ type: 'ready', port })
}

main().catch((error) => {
  console.error(`local S3: ${error instanceof Error ? error.stack : error}`)
  process.exit(1)
})
