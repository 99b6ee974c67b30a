/**
 * After `next build`: each docs page as Markdown, for readers who paste docs into an AI assistant,
 * written where the plan says (lib/access/planAggregates.ts), so that the rule of every page a file
 * holds governs it at the edge:
 * - `<route>.md`: the page's MDX source, front matter and import lines removed (mapped to its page's rule where its
 *   own path would fall under another rule, e.g. a page that an exact rule restricts);
 * - `llms.txt`: one audience's pages (the pages one rule governs) with titles, descriptions and
 *   `.md` links, and the parts of its full text; `/docs/<section>/llms.txt` for a section's own rule;
 * - the full text in parts of bounded size, as the plan cuts it (`llms-full.txt` when it is one,
 *   lib/aiTools/llmsFiles.ts names them);
 * - `pages.json`: the same pages as data for the AI tools' server (mcp/): title, line, last-updated
 *   date, and the audience's sidebar (its page-map fragment, pipeline/pageMaps.ts).
 * No file here lists every audience: the authority writes the root `/llms.txt` per reader instead
 * (edge/rootLlmsTxt.ts).
 * A file whose bytes are those of the last build's is left as it was (./keptFiles.ts): an edit
 * rewrites its page's files, not its audience's whole text. A file whose inputs are the last
 * build's (a page's digest; a part's title, place and pages' digests; an index's or catalog's own
 * text), under the same code, is not even made, so an edit reads its own page's body and no other:
 * such a file costs a stat.
 */
import fs from 'node:fs'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { AggregatePlan, LlmsFile } from '../../lib/access/planAggregates'
import { markdownKeyOf } from '../../lib/pathFormats'
import { fullTextEntry, fullTextHeader, llmsTxt } from '../../lib/aiTools/llmsFiles'
import type { CatalogPage, PageCatalog } from '../../lib/aiTools/pageCatalog'
import type { PageMapFragment } from '../../lib/navigation/mergePageMaps'
import type { LastUpdated } from '../lastUpdated'
import type { ContentSource } from '../content/contentSource'
import { storedPage, type HiddenRanges, type PageStore } from '../store/pageStore'
import { sha256 } from '../files'
import { openKeptFiles, type KeptFilesOptions } from './keptFiles'
import type { OutWrites } from './outFiles'
import { CACHE_PATHS, type SitePaths } from './paths'

/** How long the step holds the thread at a time, in ms. */
const TURN_MS = 20

/**
 * A page's body as its Markdown: without what no reader of the page sees, as its compile found it
 * (its record's `hidden`, ranges of the body, ../compile/hiddenRanges.mjs): its import and export
 * statements, which are code (the site's components a page uses), and its comments. A range that
 * fills its lines takes their line end with it.
 */
export function visibleText(body: string, hidden: HiddenRanges = []): string {
  let result = ''
  let at = 0
  for (const [start, end] of hidden) {
    if (end <= at) continue
    result += body.slice(at, Math.max(at, start))
    const lineEnd = /^\r?\n/.exec(body.slice(end, end + 2))
    at = lineEnd && (start === 0 || body[start - 1] === '\n') ? end + lineEnd[0].length : end
    if (at === end && startsLine(result)) {
      // What followed the comment on its line now starts the line: `{/* c */}# x` is a paragraph
      // that says "# x", which a line of its own would make a heading (or a list, a quote…).
      while (body[at] === ' ' || body[at] === '\t') at++
      const eol = body.indexOf('\n', at)
      const marker = BLOCK_MARKER.exec(body.slice(at, eol < 0 ? undefined : eol).replace(/\r$/, ''))
      if (marker) {
        // An ordered item's number stays, and the mark after it is escaped.
        const number = marker[2] ?? ''
        result += `${number}\\`
        at += number.length
      }
    }
  }
  return (result + body.slice(at)).replace(/^\s*\n/, '')
}

/**
 * A line that Markdown reads as a block (or a block's end) at a line's start: a heading, quote,
 * list item, rule, underline or fence; its first mark is escaped (an ordered item's number is
 * kept, and the mark after it escaped). Emphasis and the like are left as they are.
 */
const BLOCK_MARKER = /^(?:#{1,6}(?=[ \t]|$)|>|[*+-](?=[ \t]|$)|([*_-])(?:[ \t]*\1){2,}[ \t]*$|=+[ \t]*$|`{3}|~{3}|(\d{1,9})[.)](?=[ \t]|$))/

/** Whether `text` ends at a line's start, but for spaces. */
function startsLine(text: string): boolean {
  let at = text.length - 1
  while (at >= 0 && (text[at] === ' ' || text[at] === '\t')) at--
  return at < 0 || text[at] === '\n'
}

/** A page as Markdown: what its catalog names (lib/aiTools/pageCatalog.ts), and its body. */
export interface MarkdownPage extends CatalogPage {
  /** The MDX source without its front matter. */
  body: string
}

/** What the catalogs need besides the pages' sources. */
export interface CatalogInputs {
  /** Each audience's page-map fragment, by its rule (pipeline/pageMaps.ts pageMapFragments). */
  pageMaps: ReadonlyMap<string, PageMapFragment>
  lastUpdated: LastUpdated
}

/** A file of the step: its path under out/, a digest of what it is made of, and its text in pieces, each made when the file is. */
export interface MarkdownFile {
  key: string
  /** A digest of its inputs: two builds of the same code with the same make the same bytes (./keptFiles.ts writeFrom). */
  inputs: string
  pieces: Iterable<string>
}

/** A part of an audience's full text, a piece a page: each page's body is taken when the part is made. */
export function* fullTextPart(file: Pick<LlmsFile, 'title' | 'place'>, pages: Iterable<Pick<MarkdownPage, 'route' | 'body'>>): Generator<string> {
  if (file.place === null) throw new Error('buildMarkdown: the plan gives a part of a full text no place')
  yield fullTextHeader(file, file.place)
  let first = true
  for (const page of pages) {
    yield fullTextEntry(page.route, page.body, first)
    first = false
  }
}

/**
 * Every file to write, each made as it is asked for: the step holds one page's body at a time,
 * and of the others only what their catalogs name.
 */
export function* markdownFiles(
  source: ContentSource,
  /** The page store's records (../store/pageStore.ts): each page's title and description. */
  pages: PageStore['pages'],
  plan: Pick<AggregatePlan, 'markdown' | 'llms' | 'catalogs' | 'audiences'>,
  /** Without it, the Markdown and llms files alone (no catalogs, no dates). */
  catalogInputs?: CatalogInputs
): Generator<MarkdownFile> {
  const named = new Map<string, CatalogPage>()
  const contentOf = (route: string) => {
    const content = source.byRoute(route)
    if (!content) throw new Error(`buildMarkdown: the plan names ${route}, which no content file holds`)
    return content
  }
  // A page's title and description as the page itself shows them, as its record keeps them: no document is read.
  const pageOf = (route: string): CatalogPage => {
    const cached = named.get(route)
    if (cached) return cached
    const time = catalogInputs?.lastUpdated[contentOf(route).file]
    const page = { route, ...storedPage(pages, route), lastUpdated: time === undefined ? null : new Date(time).toISOString() }
    named.set(route, page)
    return page
  }
  const markdownOf = (route: string) => {
    const content = contentOf(route)
    // A page with no record, or one that does not compile, fails here: nothing says what it hides.
    storedPage(pages, route)
    return visibleText(content.body, pages[route].hidden)
  }
  // A getter, so each body is read when its part is made, not when the page list is.
  const withBody = (route: string) => ({ route, get body() { return markdownOf(route) } })
  const partsOf = (audience: string) =>
    plan.llms.flatMap((file) => (file.full && file.audience === audience && file.place ? [{ key: file.key, place: file.place, pages: file.pages.length }] : []))
  // A page's body follows from its MDX, so its digest names it (as it is: a file per page, no
  // hash made per page); a file made of bodies is named by its pages' digests, and the index and
  // catalog, made of no body, by their own text.
  const digestOf = (...parts: unknown[]) => sha256(JSON.stringify(parts))
  // A text made whole is its own input: hashed as it is, not escaped again inside JSON first.
  const textDigest = (kind: 'llms' | 'catalog', text: string) => sha256(`${kind}\n${text}`)
  const bodyOf = function* (route: string) {
    yield markdownOf(route)
  }
  for (const { key, route } of plan.markdown) yield { key, inputs: contentOf(route).digest, pieces: bodyOf(route) }
  for (const file of plan.llms) {
    if (file.full) {
      yield { key: file.key, inputs: digestOf('full', file.title, file.place, file.pages.map((route) => [route, contentOf(route).digest])), pieces: fullTextPart(file, file.pages.map(withBody)) }
    } else {
      const text = llmsTxt(file, file.pages.map(pageOf), partsOf(file.audience))
      yield { key: file.key, inputs: textDigest('llms', text), pieces: [text] }
    }
  }
  for (const file of plan.catalogs) {
    if (!catalogInputs) break
    const rule = plan.audiences.find((audience) => audience.id === file.audience)?.rule
    const pageMap = rule === undefined ? undefined : catalogInputs.pageMaps.get(rule)
    if (!pageMap) throw new Error(`buildMarkdown: no page map for the audience of ${file.key}; the page-map step and the plan disagree`)
    const catalog: PageCatalog = { pages: file.pages.map(pageOf), pageMap }
    const text = JSON.stringify(catalog)
    yield { key: file.key, inputs: textDigest('catalog', text), pieces: [text] }
  }
}

/**
 * Writes the Markdown of the plan's pages and each audience's llms files and catalog into out/,
 * each file as it is made: the step holds one file at a time (a part of a full text at most its
 * bound), to compare it with the last build's. It gives up the thread every TURN_MS: the search
 * step beside it waits on Pagefind's replies, which reach it only between turns (docs/benchmarks.md).
 */
export async function writeMarkdown(
  paths: Pick<SitePaths, 'root' | 'out'>,
  source: ContentSource,
  pages: PageStore['pages'],
  plan: AggregatePlan,
  catalogInputs: CatalogInputs,
  /** The build ID: the code that formats the files (./keptFiles.ts). */
  { version = '' }: KeptFilesOptions = {}
): Promise<MarkdownReport> {
  if (!fs.existsSync(paths.out)) throw new Error(`buildMarkdown: ${paths.out} does not exist; run \`next build\` first`)
  const kept = openKeptFiles(paths.root, paths.out, CACHE_PATHS.markdownFiles, { version })
  let files = 0
  let rewritten = 0
  let turn = Date.now()
  // A file made of the same inputs as its kept copy is not made: no page body is read for it.
  for (const { key, inputs, pieces } of markdownFiles(source, pages, plan, catalogInputs)) {
    if (kept.writeFrom(key, inputs, () => Buffer.from([...pieces].join(''), 'utf8'))) rewritten++
    files++
    if (Date.now() - turn > TURN_MS) {
      await nextTurn()
      turn = Date.now()
    }
  }
  kept.prune()
  return { pages: plan.markdown.length, files, rewritten, wrote: { files: kept.written() } }
}

export interface MarkdownReport {
  pages: number
  files: number
  rewritten: number
  /** What it put into out/ (../steps/outFiles.ts). */
  wrote: OutWrites
}
