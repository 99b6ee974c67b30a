/**
 * Reading what the content step compiled (./compilePages.ts): each page's document, by the page
 * store's record of its cache entry (../store/pageStore.ts). The page step makes the props from
 * these, and the search step indexes them.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { PageDocument } from '../../lib/render/pageDocument'
import type { SearchData } from '../../lib/search/searchRecords'
import type { CacheEntry, PageIndex } from './compilePages'
import { STORE_FILE } from '../store/pageStore'

export class CompiledPageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CompiledPageError'
  }
}

/** The compiled document of `route`; CompiledPageError when it is missing or the page does not compile. */
export function readCompiledPage(root: string, index: PageIndex, route: string): PageDocument {
  const indexed = index[route]
  if (!indexed) throw new CompiledPageError(`no page for ${route} in ${STORE_FILE}`)
  let entry: CacheEntry
  try {
    entry = JSON.parse(fs.readFileSync(path.join(root, indexed.entry), 'utf8')) as CacheEntry
  } catch (error) {
    // The build's own file, removed or damaged by hand: a build that finds it missing compiles the page again.
    const what = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing; build again' : `cannot be read (${error instanceof Error ? error.message : String(error)}); remove it and build again`
    throw new CompiledPageError(`${indexed.file}: its compiled document (${indexed.entry}) ${what}, and the page is compiled again`)
  }
  if (!entry.ok) throw new CompiledPageError(`${indexed.file} does not compile: ${entry.error.reason}`)
  return entry.output
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
