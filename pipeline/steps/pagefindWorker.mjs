/**
 * A search worker (./buildSearchIndexes.ts), a process of its own with its own Pagefind, so two
 * shards are indexed at once (one Pagefind process indexes one message at a time). A process, not a
 * thread: Pagefind's indexing process is reaped by the process that started it, and one started
 * from a thread that has ended stays a zombie until the build ends. Told a shard's documents and
 * folder, it writes the shard and answers; Pagefind's settings are its argument, and the index
 * chunk size comes with the environment the build gives it.
 */
import { writeShardFiles } from './pagefindShard.mjs'

const config = JSON.parse(process.argv[2])
const pagefind = await import('pagefind')

// The build may be gone by the time a shard is written (stopped half way): no one to answer then,
// and a send that finds the channel closed is no error of this worker's.
const answer = (message) => void (process.connected && process.send(message, () => {}))

process.on('message', async ({ documents, dir }) => {
  try {
    await writeShardFiles(await pagefind.createIndex(config), documents, dir)
    answer({})
  } catch (error) {
    answer({ error: error instanceof Error ? error.message : String(error) })
  }
})
// The build gone, or done with this worker: Pagefind's process ends with it.
process.on('disconnect', () => void pagefind.close())
