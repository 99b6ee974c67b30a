/**
 * The one content source: `content/` scanned once per build (or once per change in `npm run dev`),
 * and every step takes it. For each page it gives the file, the route, the MDX (read once, when a
 * step first needs it), its digest, its front matter and its body; for the site it gives the tree
 * of folders as the steps walk it, the page map the theme is built from, and lookups by route and
 * by file. No other pipeline file reads a page's MDX (__tests__/pipeline/contentSource.test.ts).
 * Once the steps that need the MDX have had it, the build releases it (releaseTexts): each page
 * then keeps what is small (file, route, digest, front matter), so the build's memory follows the
 * page count, not the site's bytes, and its body waits on disk for the Markdown step.
 *
 * Front matter is read as Nextra reads it (gray-matter, Nextra's own copy), and the page map is
 * the one Nextra's page-map collector makes of the same folders: its items in the same order, a
 * page's front matter with a sidebar title from its file name when it has no title, a `_meta`
 * file as a reference its folder's data replaces (lib/navigation/shapePageMap.ts inlineMetas).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { normalisePath } from '../../lib/access/normalisePath'
import type { RawItem } from '../../lib/navigation/shapePageMap'

/** Where the pages are, relative to the project. */
export const CONTENT_DIR = 'content'
/**
 * Where the build keeps each page's body (its MDX without front matter) after releasing its MDX,
 * one file per page version named by the MDX's digest, for the Markdown step to copy.
 */
export const BODY_CACHE_DIR = '.cache/markdown'
/** A page's file name: Markdown or MDX. */
export const PAGE_FILE = /\.mdx?$/
/** A folder's `_meta` file, as Nextra's page map names it. */
const META_MODULE = /^_meta\.[jt]sx?$/

/** The parsers Nextra itself loads (its own dependencies, whatever else the project holds), loaded when first used. */
const fromNextra = () => createRequire(require.resolve('nextra/package.json'))
const grayMatter = (source: string, options: object) => (fromNextra()('gray-matter') as (source: string, options: object) => { data: unknown; content: string })(source, options)
const titleCase = (text: string) => (fromNextra()('title') as { default: (text: string, options: { special: string[] }) => string }).default(text, { special: ['SSR'] })

/**
 * A page's front matter and body as Nextra reads them; throws the parser's error on YAML it
 * cannot read (pipeline/steps/checkFrontMatter.ts names it first).
 */
export function readFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  // A fresh options object each time: gray-matter caches results by source text otherwise.
  const { data, content } = grayMatter(text, {})
  return { data: (data ?? {}) as Record<string, unknown>, body: content.replace(/^\s*\n/, '') }
}

/** A file or folder under content/, as a step walks the tree. */
export interface ContentEntry {
  name: string
  /** Relative to the project, with `/`. */
  path: string
  isDirectory: boolean
}

export interface ContentPage {
  /** Relative to the project, with `/`: `content/docs/leads/intro.mdx`. */
  readonly file: string
  /** The canonical route it is served at (lib/access/normalisePath.ts). */
  readonly route: string
  /** The MDX, read on first use and kept until the build releases it (ContentSource.releaseTexts). */
  readonly text: string
  /** sha256 of the MDX, hex. */
  readonly digest: string
  /** The front matter as Nextra reads it. */
  readonly frontMatter: Record<string, unknown>
  /** The MDX without its front matter: what a reader's AI tool is given. */
  readonly body: string
}

export interface ContentSource {
  root: string
  /** Every page, in path order. */
  pages: readonly ContentPage[]
  /** Pages whose path no request can reach as itself (checkLinks refuses them). */
  unservable: readonly string[]
  /** Every folder's `_meta` module, relative to the project, in path order. */
  metaFiles: readonly string[]
  /** The entries of a folder (relative to the project), by name; empty when it is not there. */
  list: (folder: string) => readonly ContentEntry[]
  byRoute: (route: string) => ContentPage | undefined
  byFile: (file: string) => ContentPage | undefined
  /** The page map of the whole site, as Nextra's page-map collector makes it. */
  pageMap: () => RawItem[]
  /** How many times each page's file was read: once at most. */
  reads: ReadonlyMap<string, number>
  /**
   * Drops every page's MDX, keeping its digest and front matter, and writes each body under
   * BODY_CACHE_DIR (unless there already), where `body` reads it from then on; bodies no page has
   * now are removed. The build calls it once the content and link checks have had the MDX; a page's
   * `text` is an error after it.
   */
  releaseTexts: () => void
}

/** A page's title as the page shows it: its compiled document's (front matter, else first heading), else its route. */
export function pageTitle(doc: { title: string }, route: string): string {
  return doc.title || route
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)

/** What a page's file held when it was read (its MDX until released), and the time and size it had. */
interface Reading {
  text?: string
  digest: string
  stamp: string
  parsed?: ReturnType<typeof readFrontMatter>
  frontMatter?: Record<string, unknown>
}
/** A file's time and size, which change when it is written: what says a reading of it may be stale; null when it is gone. */
export function stampOf(file: string): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false })
  return stat ? `${stat.mtimeMs}:${stat.size}` : null
}

/** A page whose file is read on first use, once; `kept` is the last scan's reading, used while the file has not changed. */
function contentPage(root: string, file: string, route: string, reads: Map<string, number>, kept?: Reading): ContentPage & { reading?: Reading; release: () => void } {
  const absolute = path.join(root, file)
  const page = {
    file,
    route,
    reading: kept && kept.stamp === stampOf(absolute) ? kept : undefined,
    load(): Reading {
      if (!page.reading) {
        const stamp = stampOf(absolute) ?? ''
        const text = fs.readFileSync(absolute, 'utf8')
        reads.set(file, (reads.get(file) ?? 0) + 1)
        page.reading = { text, digest: crypto.createHash('sha256').update(text).digest('hex'), stamp }
      }
      return page.reading
    },
    get text() {
      const { text } = page.load()
      if (text === undefined) throw new Error(`${file}: a step asked for the MDX after the build released it; take what it needs before releaseTexts`)
      return text
    },
    get digest() {
      return page.load().digest
    },
    get frontMatter() {
      const reading = page.load()
      return reading.frontMatter ?? (reading.parsed ??= readFrontMatter(page.text)).data
    },
    get body() {
      const reading = page.load()
      if (reading.text === undefined) return fs.readFileSync(bodyFile(root, reading.digest), 'utf8')
      return (reading.parsed ??= readFrontMatter(reading.text)).body
    },
    release() {
      const reading = page.reading
      if (reading?.text === undefined) return
      const parsed = reading.parsed ?? readFrontMatter(reading.text)
      const file = bodyFile(root, reading.digest)
      if (!fs.existsSync(file)) fs.writeFileSync(file, parsed.body)
      page.reading = { digest: reading.digest, stamp: reading.stamp, frontMatter: parsed.data }
    },
  }
  return page
}

const bodyFile = (root: string, digest: string) => path.join(root, BODY_CACHE_DIR, `${digest}.md`)

/** Releases each page's MDX (ContentSource.releaseTexts), then removes the bodies of page versions the site no longer has. */
function releaseTexts(root: string, pages: readonly ReturnType<typeof contentPage>[]): void {
  fs.mkdirSync(path.join(root, BODY_CACHE_DIR), { recursive: true })
  for (const page of pages) page.release()
  const kept = new Set(pages.flatMap((page) => (page.reading ? [`${page.reading.digest}.md`] : [])))
  for (const name of fs.readdirSync(path.join(root, BODY_CACHE_DIR))) if (!kept.has(name)) fs.rmSync(path.join(root, BODY_CACHE_DIR, name), { force: true })
}

/**
 * Scans `root`/content/ once: its folders and pages. Pass the last scan as `previous` (`npm run
 * dev`) to keep each page read then and unchanged since.
 */
export function scanContent(root: string, previous?: ContentSource): ContentSource {
  const folders = new Map<string, ContentEntry[]>()
  const pages: ReturnType<typeof contentPage>[] = []
  const unservable: string[] = []
  const metaFiles: string[] = []
  const reads = new Map<string, number>()
  const walk = (folder: string) => {
    const dirents = fs.readdirSync(path.join(root, folder), { withFileTypes: true })
    const entries = dirents.map((entry) => ({ name: entry.name, path: `${folder}/${entry.name}`, isDirectory: entry.isDirectory() })).sort(byName)
    folders.set(folder, entries)
    for (const entry of entries) {
      if (entry.isDirectory) walk(entry.path)
      else if (PAGE_FILE.test(entry.name)) {
        const route = normalisePath(entry.path.slice(CONTENT_DIR.length).replace(PAGE_FILE, ''))
        if (route === null) unservable.push(entry.path)
        else pages.push(contentPage(root, entry.path, route, reads, (previous?.byFile(entry.path) as ReturnType<typeof contentPage> | undefined)?.reading))
      } else if (META_MODULE.test(entry.name)) metaFiles.push(entry.path)
    }
  }
  if (fs.existsSync(path.join(root, CONTENT_DIR))) walk(CONTENT_DIR)
  pages.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  const routes = new Map(pages.map((page) => [page.route, page]))
  const files = new Map(pages.map((page) => [page.file, page]))
  let pageMap: RawItem[] | undefined
  const list = (folder: string) => folders.get(folder) ?? []
  return {
    root,
    pages,
    unservable,
    metaFiles: metaFiles.sort(),
    list,
    byRoute: (route) => routes.get(route),
    byFile: (file) => files.get(file),
    pageMap: () => (pageMap ??= collectPageMap(list, files)),
    reads,
    releaseTexts: () => releaseTexts(root, pages),
  }
}

/**
 * The front-matter fields that the navigation reads of a page map's page (Nextra's normalizePages:
 * the title it shows, whether it is hidden, its theme options; the AI tools' page tree: the title).
 * The page map ships in every page's props and the route manifests, so the rest (a description, a
 * writer's own fields) stays out: at 3,000 generated pages the descriptions alone were 7 kB of a
 * page's props.
 */
const NAVIGATION_FIELDS = ['title', 'sidebarTitle', 'display', 'theme'] as const

function navigationFields(frontMatter: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(NAVIGATION_FIELDS.filter((field) => frontMatter[field] !== undefined).map((field) => [field, frontMatter[field]]))
}

/**
 * The page map Nextra's collector (nextra/dist/server/page-map.js collectFiles) makes of
 * content/: each folder's items by name, a folder that holds nothing left out, a page with its
 * front matter, a `_meta` file as a reference to its module.
 */
function collectPageMap(list: ContentSource['list'], files: ReadonlyMap<string, ContentPage>, folder = CONTENT_DIR, route = '/'): RawItem[] {
  return list(folder).flatMap((entry): RawItem[] => {
    const name = entry.isDirectory ? entry.name : entry.name.replace(/\.[^.]*$/, '')
    const own = path.posix.join(route, entry.isDirectory ? name : name.replace(/^index$/, ''))
    if (entry.isDirectory) {
      const children = collectPageMap(list, files, entry.path, own)
      return children.length > 0 ? [{ name, route: own, children }] : []
    }
    if (PAGE_FILE.test(entry.name)) {
      const page = files.get(entry.path)
      if (!page) return []
      const frontMatter = navigationFields(page.frontMatter)
      if (!frontMatter.title) frontMatter.sidebarTitle ||= titleCase(name.replace(/[-_]/g, ' '))
      return [{ name, route: own, frontMatter }]
    }
    return META_MODULE.test(entry.name) ? [{ data: entry.path }] : []
  })
}
