/**
 * Indexes one search shard with Pagefind: the same on the build's thread and in a search worker
 * (./pagefindWorker.mjs), so a shard's files do not depend on where it was indexed.
 */
import fs from 'node:fs'
import path from 'node:path'

/**
 * Files Pagefind writes that the site never loads, so they never ship: its prebuilt UIs (the site
 * has its own search box), its worker (the search box runs Pagefind in the page,
 * lib/search/searchClient.ts) and the engine for pages of unknown language (every index is English).
 */
const UNUSED_BUNDLE_FILES = /^pagefind-(ui|component-ui|modular-ui)\.(js|css)$|^pagefind-highlight\.js$|^pagefind-worker\.js$|^wasm\.unknown\.pagefind$/

/**
 * Adds `documents` ({ url, html }) to a new Pagefind index, as one document per page (so a page's
 * excerpt data is one file that all its sections share), writes it into `dir` and ends it. Every
 * document, and the request to write, is sent at once: Pagefind's process takes its requests one
 * after another, in the order sent, so it writes once it has every page, without waiting for this
 * thread to take its answers (the build's thread is busy with other steps meanwhile).
 * @param {{ index?: any, errors: string[] }} made what Pagefind's createIndex answered
 * @param {{ url: string, html: string }[]} documents
 * @param {string} dir
 */
export async function writeShardFiles(made, documents, dir) {
  const { index, errors } = made
  if (!index) throw new Error(`pagefind could not create the index of ${dir}: ${errors.join('; ')}`)
  const adding = Promise.all(documents.map((document) => index.addHTMLFile({ url: document.url, content: document.html })))
  const writing = index.writeFiles({ outputPath: dir })
  const [added, written] = await Promise.all([adding, writing])
  added.forEach(({ errors: rejected }, i) => {
    if (rejected.length > 0) throw new Error(`pagefind rejected ${documents[i].url}: ${rejected.join('; ')}`)
  })
  if (written.errors.length > 0) throw new Error(`pagefind could not write ${dir}: ${written.errors.join('; ')}`)
  await index.deleteIndex()
  for (const name of fs.readdirSync(dir)) if (UNUSED_BUNDLE_FILES.test(name)) fs.rmSync(path.join(dir, name))
}
