/**
 * One Pagefind document per page, made from the page's records (lib/search/searchRecords.ts):
 * a small HTML page with the title as its h1, the intro, then each section under an h2 carrying
 * the section's anchor id. Pure.
 *
 * Why pages and not one record per section: Pagefind's metadata, which every reader of an index
 * downloads whole before the first result, holds an entry per document, and its word lists grow
 * with the documents too; a docs page has about seven sections. Indexed as a page, Pagefind still
 * finds each section: it splits a result at its headings with ids ("sub-results", each with its
 * own URL, title and highlighted excerpt), and it weighs words in headings above body text.
 */
import type { SearchRecord } from './searchRecords'

export interface SearchDocument {
  /** The page route: what the result links to when no section matches better. */
  url: string
  html: string
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The id after `#` in a record's URL, or null for the intro and headings without an id. */
function anchorOf(url: string): string | null {
  const at = url.indexOf('#')
  return at < 0 || at === url.length - 1 ? null : url.slice(at + 1)
}

function documentHtml(records: readonly SearchRecord[]): string {
  const [first] = records
  // The section's name is result metadata, never words to match (data-pagefind-ignore keeps it out of the index).
  const parts = [`<p data-pagefind-ignore data-pagefind-meta="section">${escapeHtml(first.meta.section)}</p>`, `<h1 data-pagefind-meta="title">${escapeHtml(first.meta.title)}</h1>`]
  for (const record of records) {
    if (record.meta.heading !== undefined) {
      const id = anchorOf(record.url)
      parts.push(`<h2${id === null ? '' : ` id="${escapeHtml(id)}"`}>${escapeHtml(record.meta.heading)}</h2>`)
    }
    if (record.text) parts.push(`<p>${escapeHtml(record.text)}</p>`)
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>${parts.join('')}</body></html>`
}

/** The pages of `records`, in the order their first record appears; each page's sections in record order. */
export function searchDocuments(records: readonly SearchRecord[]): SearchDocument[] {
  const pages = new Map<string, SearchRecord[]>()
  for (const record of records) {
    const page = pages.get(record.route)
    if (page) page.push(record)
    else pages.set(record.route, [record])
  }
  return [...pages].map(([route, pageRecords]) => ({ url: route, html: documentHtml(pageRecords) }))
}
