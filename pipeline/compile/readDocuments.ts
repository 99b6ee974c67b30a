/**
 * Reading what the content step compiled (./compilePages.ts): each page's document, by the page
 * store's record of its cache entry (../store/pageStore.ts). The page step makes the props from
 * these, and the search step indexes them.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { PageDocument } from '../../lib/render/pageDocument'
import type { SearchData } from '../../lib/search/searchRecords'
import { readEntry, type PageIndex } from './compilePages'
import { STORE_FILE } from '../store/pageStore'
import { NamedError } from '../content/contentError'

export class CompiledPageError extends NamedError {}

/** The compiled document of `route`; CompiledPageError when it is missing or the page does not compile. */
export function readCompiledPage(root: string, index: PageIndex, route: string): PageDocument {
  const indexed = index[route]
  if (!indexed) throw new CompiledPageError(`no page for ${route} in ${STORE_FILE}`)
  const file = path.join(root, indexed.entry)
  const entry = readEntry(file)
  if (!entry) {
    // The build's own file, removed or damaged by hand: gone, the next build compiles the page again.
    const what = fs.existsSync(file) ? 'was damaged, and is removed' : 'is missing'
    fs.rmSync(file, { force: true })
    // The compile takes an entry by its name: every other damaged one goes now too, so one build again mends them all.
    const others = removeDamagedEntries(root, index).filter((damaged) => damaged !== indexed.entry)
    const more = others.length > 0 ? `; ${others.length} other damaged document${others.length === 1 ? ' is' : 's are'} removed too` : ''
    throw new CompiledPageError(`${indexed.file}: its compiled document (${indexed.entry}) ${what}${more}; build again, and the page is compiled again`)
  }
  if (!entry.ok) throw new CompiledPageError(`${indexed.file} does not compile: ${entry.error.reason}`)
  return entry.output
}

/** Removes each entry `index` names that is there but not a cache entry; returns them. */
function removeDamagedEntries(root: string, index: PageIndex): string[] {
  const damaged = Object.values(index).flatMap(({ entry }) => (fs.existsSync(path.join(root, entry)) && !readEntry(path.join(root, entry)) ? [entry] : []))
  for (const entry of damaged) fs.rmSync(path.join(root, entry), { force: true })
  return damaged
}

/**
 * Each page's search data, as Nextra's own search file had it (title and text by heading), read
 * from its document when asked for, one page at a time; null for a page with `searchable: false`.
 */
export function searchDataOf(root: string, index: PageIndex): SearchData {
  return {
    routes: Object.keys(index).sort(),
    // The entry's name is a hash of the compiler, the file and its bytes.
    version: (route) => index[route]?.entry ?? '',
    read: (route) => {
      const doc = readCompiledPage(root, index, route)
      return doc.structurizedData && doc.frontMatter.searchable !== false ? { title: doc.title, data: doc.structurizedData } : null
    },
  }
}
