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
 * It is also the one reader of public/, and reads both trees as data: a link or a special file is
 * refused (a writer's link would publish whatever the build machine can read), `_meta` files are
 * parsed, never run (./metaData.ts), front matter is YAML parsed once (./frontMatter.ts), and a
 * public file must be of a type the site serves, an SVG one that cannot run (./svgCheck.ts).
 *
 * The page map is the one Nextra's page-map collector makes of the same folders: its items in the same order, a
 * page's front matter with a sidebar title from its file name when it has no title (by the site's
 * one rule, lib/navigation/slugTitle.ts, not Nextra's), a `_meta` file as a reference its folder's
 * data replaces (lib/navigation/navigationTree.ts).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { normalisePath } from '../../lib/access/normalisePath'
import { isReservedSegment } from '../../lib/access/sectionPaths'
import { CATALOG_FILE, isLlmsFileName, pathOfMarkdownKey } from '../../lib/pathFormats'
import { routeOfHtmlFile } from '../../lib/access/pageFiles'
import type { RawItem } from '../../lib/navigation/shapePageMap'
import { slugTitle } from '../../lib/navigation/slugTitle'
import { fileStampOf, readChecked, sameStamp, settledAt, sha256, stampOf, writeChecked, type FileStamp } from '../files'
import { codeLanguagesIn, linksIn, metaLinksIn, PAGE_LINK, type FoundLink } from './pageLinks'
import { withSiteHrefs } from '../compile/sitePaths.mjs'
import { scanParsers, type ScannedMeta, type ScannedPage, type ScanRecord } from './scanRecord'
import { CACHE_PATHS } from '../steps/paths'
import { ContentError, NamedError } from './contentError'
import { parseFrontMatter, type FrontMatter } from './frontMatter'
import { BadMetaFileError, parseMetaFile } from './metaData'
import { checkSvg, UnsafeSvgError } from './svgCheck'
import { checkPdf, UnsafePdfError } from './pdfCheck'
import { textOfFile } from './fileText'
import { codePointName } from '../../lib/plainText.mjs'

/** Where the pages are, relative to the project. */
export const CONTENT_DIR = 'content'
/** The folder of the sections' folders, the /docs page and its `_meta`. */
export const DOCS_DIR = `${CONTENT_DIR}/docs`
/** Where the files served as they are (images, the logo) are, relative to the project. */
export const PUBLIC_DIR = 'public'
/**
 * Where the build keeps each page's body (its MDX without front matter) after releasing its MDX,
 * one file per page version named by the MDX's digest, for the Markdown step to copy.
 */
export const BODY_CACHE_DIR = CACHE_PATHS.markdown
/** Where each `_meta` file's data is kept by its text's digest, so a build loads no parser for `_meta` files it has read before. */
export const META_CACHE_DIR = CACHE_PATHS.meta
/** A page's file name: Markdown or MDX. */
export const PAGE_FILE = /\.mdx?$/
/** A folder's `_meta` file: the one definition the checks, the page map and the links use. */
export const META_FILE = /^_meta\.(?:[jt]sx?|mjs)$/
/**
 * What public/ may hold, by extension: images, PDF, fonts and plain text. Anything else (HTML,
 * script, a style sheet, JSON) would be served from the site's origin as the writer wrote it.
 */
export const PUBLIC_FILE_TYPES = ['.svg', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.ico', '.pdf', '.woff', '.woff2', '.txt'] as const
/** Whether a file of `extension` (lowercase, with its dot) is one public/ serves. */
export const isPublicFileType = (extension: string): boolean => (PUBLIC_FILE_TYPES as readonly string[]).includes(extension)

/** A symbolic link, or anything else that is not a plain file or folder, under content/ or public/. */
export class NotAFileError extends ContentError {
  constructor(entry: string, kind: 'link' | 'special') {
    const what = kind === 'link' ? 'is a symbolic link' : 'is neither a file nor a folder'
    super(entry, `${entry}: ${what}. The build reads only plain files and folders under ${CONTENT_DIR}/ and ${PUBLIC_DIR}/, so that nothing outside them is published; replace it with a copy of the file.`)
  }
}

/** A file in public/ of a type the site does not serve. */
export class PublicFileTypeError extends ContentError {
  constructor(file: string) {
    super(file, `${file}: public/ serves images, PDF, fonts and plain text only (${PUBLIC_FILE_TYPES.join(', ')}); this file's type would be served from the site's own origin as written. Remove it, or convert it to one of those.`)
  }
}

/** A letter or mark of a script that shapes its words with joiners (Arabic, Indic…): not one that looks like Latin. */
const JOINED_SCRIPT = /(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])[\p{L}\p{M}]/u

/**
 * Whether `char` is a joiner or selector that shows as part of what is around it: a joiner within
 * a word of a script that needs one, or within an emoji; an emoji's style selector; a flag's tags.
 */
function shapes(char: string, before: string, after: string): boolean {
  if (/[\u200C\u200D]/.test(char) && JOINED_SCRIPT.test(before) && JOINED_SCRIPT.test(after)) return true
  if (char === '\u200D') return /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u.test(before) && /\p{Extended_Pictographic}/u.test(after)
  if (/[\uFE0E\uFE0F]/.test(char)) return /\p{Emoji}/u.test(before)
  return /[\u{E0020}-\u{E007F}]/u.test(char) && /[\u{1F3F4}\u{E0020}-\u{E007F}]/u.test(before)
}

/**
 * The first character of a path that shows nothing of its own, so the path would look like another:
 * a control, a space other than U+0020 (or one at a name's start or end, or two together), the
 * Braille blank, a format, private-use or unassigned character, or one Unicode says to ignore
 * (zero-width, direction, fillers, selectors), but for a joiner or selector that `shapes`; null when none.
 */
function unseenIn(file: string): string | null {
  if (/(?:^|\/) | (?:\/|$)| {2}/.test(file)) return ' '
  const chars = [...file]
  for (const [at, char] of chars.entries()) {
    if (/[^\S ]|[\p{Cc}\p{Cs}\u2800]/u.test(char)) return char
    if (!/[\p{Cf}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u.test(char) || shapes(char, chars[at - 1] ?? '', chars[at + 1] ?? '')) continue
    return char
  }
  return null
}

/** A file of public/ whose path would look like another's, whose rule it does not take. */
export class PublicFileNameError extends ContentError {
  constructor(file: string, character: string) {
    super(file, `${file}: its path holds ${codePointName(character)}, a character that shows nothing of its own, or a space other than one plain space between words: it would look like another path, whose rule it does not take. Rename it in plain characters.`)
  }
}

/**
 * A file in public/ at a path the site makes its own files at: a folder whose name starts with `_`
 * (Next's `_next/`, the audiences' and search folders) or an llms file's name. The build would
 * write over it, or serve the reader's own in its place, and nothing would say so.
 */
export class ReservedPublicPathError extends ContentError {
  constructor(file: string) {
    super(
      file,
      `${file}: the site writes its own files at this path (folders whose name starts with _; names of the files the build makes in a folder: a page's HTML and Markdown, *.html and *.md, and each audience's ${CATALOG_FILE}, llms.txt and llms-full*.txt); this file would be overwritten or never served. Rename it.`
    )
  }
}

/**
 * A page whose text, read after the scan, is not the version the scan took (its digest): the file
 * was written during the build. Its steps would otherwise mix two versions of it (the store's
 * record and links of one, the compiled document of the other), so the build stops.
 */
export class PageChangedError extends NamedError {
  constructor(readonly file: string) {
    super(`${file}: changed during the build (it no longer holds the text the build scanned); run the build again.`)
  }
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
  /** The front matter, YAML parsed once (./frontMatter.ts); throws its BadFrontMatterError or FrontMatterLanguageError. */
  readonly frontMatter: Record<string, unknown>
  /** The MDX without its front matter: what a reader's AI tool is given. */
  readonly body: string
  /** The body's size in bytes, kept when the MDX is released: what the planner cuts full texts by. */
  readonly bodyBytes: number
  /** Its links and images with their lines (./pageLinks.ts), for the link check. */
  readonly links: readonly FoundLink[]
  /** The languages of its fenced code blocks (./pageLinks.ts): `npm run dev` loads their grammars before the first edit. */
  readonly codeLanguages: readonly string[]
}

export interface ContentMeta {
  /** Relative to the project: `content/docs/leads/_meta.ts`. */
  readonly file: string
  /** The route of its folder as the page map names it: `/docs/leads`, `/` for content/. */
  readonly folderRoute: string
  /** The file as written (the link check finds its `href` lines in it). */
  readonly text: string
  /** Its `export default { … }` as data (./metaData.ts); throws its BadMetaFileError. */
  readonly data: Record<string, unknown>
  /** Its `href` entries with their lines (./pageLinks.ts), for the link check. */
  readonly links: readonly FoundLink[]
}

export interface PublicFile {
  /** Relative to the project: `public/docs/leads/images/flow.svg`. */
  readonly file: string
  /** Where it is served: `/docs/leads/images/flow.svg`. */
  readonly key: string
  /** Its bytes, as checked (read when first asked for, without following a link). */
  readonly bytes: () => Buffer
  /** What names its bytes unread: its stamp, when it was checked long enough after its last write (../files.ts settledAt); else null. */
  readonly version: string | null
}

export interface ContentSource {
  root: string
  /** Every page, in path order. */
  pages: readonly ContentPage[]
  /** Pages whose path no request can reach as itself (checkLinks refuses them). */
  unservable: readonly string[]
  /** Every folder's `_meta` file, in path order. */
  metas: readonly ContentMeta[]
  /** The data of the `_meta` file of a folder route (`/` for content/), its relative hrefs as site paths; throws its BadMetaFileError. */
  metaOf: (folderRoute: string) => Record<string, unknown>
  /** Every file under public/ that passed its checks, in path order. */
  publicFiles: readonly PublicFile[]
  /** A checked public file by the key it is served at (`/docs/leads/images/flow.svg`). */
  publicFile: (key: string) => PublicFile | undefined
  /** What the scan refused (links, special files, public files the site does not serve, unsafe SVGs); the content check reports them. */
  problems: readonly ContentError[]
  /** The entries of a folder (relative to the project), by name; empty when it is not there. */
  list: (folder: string) => readonly ContentEntry[]
  byRoute: (route: string) => ContentPage | undefined
  byFile: (file: string) => ContentPage | undefined
  /** The page map of the whole site, as Nextra's page-map collector makes it. */
  pageMap: () => RawItem[]
  /** How many times each page's file was read: once at most, and once more when its kept body was damaged. */
  reads: ReadonlyMap<string, number>
  /**
   * Drops every page's MDX, keeping its digest and front matter, and writes each body under
   * BODY_CACHE_DIR (unless there already), where `body` reads it from then on; bodies no page has
   * now are removed. The build calls it once the content and link checks have had the MDX; a page's
   * `text` is an error after it.
   */
  releaseTexts: () => void
  /** What the page store keeps of this scan for the next (./scanRecord.ts): each page read long enough after its last write, by file. */
  scanRecord: () => ScanRecord
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)

/** What a page's file held when it was read (its MDX until released), the stamp it had, and whether it may be kept (./scanRecord.ts). */
interface Reading {
  text?: string
  digest: string
  stamp: FileStamp
  settled: boolean
  parsed?: FrontMatter
  frontMatter?: Record<string, unknown>
  bodyBytes?: number
  links?: readonly FoundLink[]
  codeLanguages?: readonly string[]
  /** The store's record it was taken from: what the next record keeps of it, as it is. */
  recorded?: ScannedPage
}

/** The reading a page's last scan or record gives, if the file is still the one read then. */
function keptReading(absolute: string, kept: Reading | undefined): Reading | undefined {
  if (!kept?.settled) return undefined
  const stat = fs.lstatSync(absolute, { throwIfNoEntry: false })
  // Only a plain file keeps its reading: anything else in its place is read, and refused, anew.
  return stat?.isFile() && sameStamp(fileStampOf(stat), kept.stamp) ? kept : undefined
}

/** A recorded page as a reading without its text (it is read only if a step asks for the text). */
const recordedReading = (recorded: ScannedPage): Reading => {
  const { digest, frontMatter, bodyBytes, links, codeLanguages, ...stamp } = recorded
  return { digest, stamp: fileStampOf(stamp as fs.Stats), settled: true, frontMatter, bodyBytes, links, codeLanguages, recorded }
}

/**
 * A page whose file is read on first use, once; `kept` is the last scan's reading (or the store's
 * record of it), used while the file has the stamp it had then. A class, not an object of
 * closures: a site's pages are tens of thousands, each made at every build (docs/benchmarks.md).
 */
class LoadedPage implements ContentPage {
  reading: Reading | undefined
  private released = false

  constructor(
    private readonly root: string,
    readonly file: string,
    readonly route: string,
    private readonly reads: Map<string, number>,
    kept?: Reading
  ) {
    // Not path.join: `file` is already a clean relative path, and normalising tens of thousands cost the scan about 30 ms.
    this.reading = keptReading(`${root}/${file}`, kept)
  }

  private read(): Reading {
    const absolute = path.join(this.root, this.file)
    // The stamp is taken before the bytes: a write after it changes the stamp the next scan sees.
    const stamp = fileStampOf(fs.lstatSync(absolute))
    const text = textOfFile(this.file, readPlainFile(absolute))
    this.reads.set(this.file, (this.reads.get(this.file) ?? 0) + 1)
    return { text, digest: sha256(text), stamp, settled: settledAt(stamp, Date.now()) }
  }

  load(): Reading {
    return (this.reading ??= this.read())
  }

  get text(): string {
    const reading = this.load()
    if (reading.text !== undefined) return reading.text
    if (this.released) throw new Error(`${this.file}: a step asked for the MDX after the build released it; take what it needs before releaseTexts`)
    // Taken from the record (or the last scan): read now, keeping what was known of it, if it is still that version.
    const fresh = this.read()
    if (fresh.digest !== reading.digest) throw new PageChangedError(this.file)
    this.reading = { ...reading, ...fresh }
    return fresh.text as string
  }

  get digest(): string {
    return this.load().digest
  }

  get frontMatter(): Record<string, unknown> {
    const reading = this.load()
    return reading.frontMatter ?? (reading.parsed ??= parseFrontMatter(this.file, this.text)).data
  }

  get body(): string {
    const reading = this.load()
    if (reading.text !== undefined) return (reading.parsed ??= parseFrontMatter(this.file, reading.text)).body
    const kept = bodyFile(this.root, reading.digest)
    const body = readChecked(kept)
    if (body !== null) return body
    if (!this.released) return parseFrontMatter(this.file, this.text).body
    // Released, and none kept for this version or not as it was written (damaged): the page is read
    // again, if it is still this version, without keeping its MDX; its body is kept again.
    const fresh = this.read()
    if (fresh.digest !== reading.digest) throw new PageChangedError(this.file)
    const again = parseFrontMatter(this.file, fresh.text as string).body
    writeChecked(kept, again)
    return again
  }

  get bodyBytes(): number {
    const reading = this.load()
    return (reading.bodyBytes ??= Buffer.byteLength(this.body))
  }

  get links(): readonly FoundLink[] {
    const reading = this.load()
    return (reading.links ??= linksIn(this.text, PAGE_LINK))
  }

  get codeLanguages(): readonly string[] {
    const reading = this.load()
    return (reading.codeLanguages ??= codeLanguagesIn(this.text))
  }

  release(keptBodies: ReadonlySet<string>): void {
    this.released = true
    let reading = this.reading
    if (!reading) return
    const kept = bodyFile(this.root, reading.digest)
    const isKept = keptBodies.has(path.basename(kept))
    if (reading.text === undefined) {
      if (isKept) return
      // The body kept for this version is gone (its folder was removed): read the page for it.
      this.released = false
      void this.text
      this.released = true
      reading = this.reading as Reading
    }
    const text = reading.text as string
    const parsed = reading.parsed ?? parseFrontMatter(this.file, text)
    if (!isKept) writeChecked(kept, parsed.body, { inPlace: true })
    this.reading = { digest: reading.digest, stamp: reading.stamp, settled: reading.settled, frontMatter: parsed.data, bodyBytes: Buffer.byteLength(parsed.body), links: reading.links ?? linksIn(text, PAGE_LINK), codeLanguages: reading.codeLanguages ?? codeLanguagesIn(text) }
  }

  /** What the store keeps of this page: none while it may change unseen (racy) or its front matter does not parse. */
  record(): ScannedPage | undefined {
    const reading = this.reading
    if (!reading?.settled) return undefined
    // Taken from the record, and the file still the one recorded (its digest, when read since): the same record.
    if (reading.recorded) return reading.recorded
    try {
      return { ...reading.stamp, digest: reading.digest, frontMatter: this.frontMatter, bodyBytes: this.bodyBytes, links: this.links, codeLanguages: this.codeLanguages }
    } catch (error) {
      if (error instanceof ContentError) return undefined
      throw error
    }
  }
}

const bodyFile = (root: string, digest: string) => path.join(root, BODY_CACHE_DIR, `${digest}.md`)

/** Releases each page's MDX (ContentSource.releaseTexts), then removes the bodies of page versions the site no longer has. */
function releaseTexts(root: string, pages: readonly LoadedPage[]): void {
  const dir = path.join(root, BODY_CACHE_DIR)
  fs.mkdirSync(dir, { recursive: true })
  // One listing says which bodies are kept, for every page at once and for the pruning after.
  const present = new Set(fs.readdirSync(dir))
  for (const page of pages) page.release(present)
  const kept = new Set(pages.flatMap((page) => (page.reading ? [`${page.reading.digest}.md`] : [])))
  for (const name of present) if (!kept.has(name)) fs.rmSync(path.join(dir, name), { force: true })
}

/**
 * A file's bytes, never through a link: the scan refuses links, and opening with O_NOFOLLOW keeps a
 * file that became one since from being followed.
 */
export function readPlainFile(absolute: string): Buffer {
  const fd = fs.openSync(absolute, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error(`${absolute}: not a plain file`)
    return fs.readFileSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Each `_meta` file's data by the digest of its text and of the parser (./scanRecord.ts), in this process and on disk (META_CACHE_DIR). */
const metaCache = new Map<string, Record<string, unknown>>()

/** The data of a `_meta` file's text: from the cache when this text was read before, else parsed (never run). */
function metaData(root: string, file: string, text: string): Record<string, unknown> {
  const digest = crypto.createHash('sha256').update(scanParsers()).update('\0').update(file.replace(/^.*\./, '')).update('\0').update(text).digest('hex')
  const known = metaCache.get(digest)
  if (known) return known
  const cached = path.join(root, META_CACHE_DIR, `${digest}.json`)
  // None yet, or not as it was written (damaged): parsed again.
  const kept = readChecked(cached)
  let data = kept === null ? null : (JSON.parse(kept) as Record<string, unknown>)
  if (!data) {
    try {
      data = parseMetaFile(file, text)
    } catch (error) {
      // The parser's stack ran out: a value nested past any a sidebar needs.
      if (error instanceof RangeError) throw new BadMetaFileError(file, `this _meta file nests its values too deep to read (${error.message}); a sidebar entry needs a few levels at most`)
      throw error
    }
    writeChecked(cached, JSON.stringify(data))
  }
  metaCache.set(digest, data)
  return data
}

type LoadedMeta = ContentMeta & { record: () => ScannedMeta | undefined }

/** A `_meta` file, read on first use; `recorded` is the store's record of it, used while the file has the stamp it had then. */
function contentMeta(root: string, file: string, folderRoute: string, recorded?: ScannedMeta): LoadedMeta {
  const absolute = path.join(root, file)
  const stat = recorded && fs.lstatSync(absolute, { throwIfNoEntry: false })
  const kept = stat && sameStamp(fileStampOf(stat), recorded) ? recorded : undefined
  let reading: { text: string; stamp: FileStamp; settled: boolean } | undefined
  let links: FoundLink[] | undefined
  const read = () => {
    if (!reading) {
      const stamp = fileStampOf(fs.lstatSync(absolute))
      reading = { text: textOfFile(file, readPlainFile(absolute)), stamp, settled: false }
      reading.settled = settledAt(stamp, Date.now())
    }
    return reading.text
  }
  const meta: LoadedMeta = {
    file,
    folderRoute,
    get text() {
      return read()
    },
    get data() {
      return kept ? kept.data : metaData(root, file, read())
    },
    get links() {
      return kept ? kept.links : (links ??= metaLinksIn(meta.data, read()))
    },
    record() {
      if (kept) return kept
      if (!reading?.settled) return undefined
      try {
        return { ...reading.stamp, data: meta.data, links: meta.links }
      } catch (error) {
        if (error instanceof ContentError) return undefined
        throw error
      }
    },
  }
  return meta
}

/** A name the build gives a file it makes in a folder of out/: a page's HTML or Markdown (`intro.html`, `intro.md`), an audience's catalog or llms files. */
const isBuiltFileName = (name: string) => routeOfHtmlFile(`/${name}`) !== null || pathOfMarkdownKey(name) !== name || name === CATALOG_FILE || isLlmsFileName(name)

/** The checked public file, or the problem that refuses it. */
function publicFile(root: string, file: string, kept?: PublicFile & { stamp?: FileStamp | null }): (PublicFile & { stamp: FileStamp | null }) | ContentError {
  const absolute = path.join(root, file)
  const stamp = stampOf(absolute)
  // Its stamp, kept only when the check read it long enough after its last write (../files.ts), spares checking it again.
  if (kept?.stamp && stamp && sameStamp(kept.stamp, stamp)) return kept as PublicFile & { stamp: FileStamp }
  const checkedAt = Date.now()
  const extension = path.posix.extname(file).toLowerCase()
  if (!isPublicFileType(extension)) return new PublicFileTypeError(file)
  const unseen = unseenIn(file)
  if (unseen !== null) return new PublicFileNameError(file, unseen)
  const segments = file.split('/').slice(1)
  // A built file's name as a folder too (out/ would need a file and a folder of the same name), and in any case (one file, on a file system that ignores case).
  if (segments.slice(0, -1).some(isReservedSegment) || segments.some((segment) => isBuiltFileName(segment.toLowerCase()))) return new ReservedPublicPathError(file)
  if (extension === '.svg' || extension === '.pdf') {
    try {
      if (extension === '.svg') checkSvg(file, readPlainFile(absolute).toString('utf8'))
      else checkPdf(file, readPlainFile(absolute))
    } catch (error) {
      if (error instanceof UnsafeSvgError || error instanceof UnsafePdfError) return error
      throw error
    }
  }
  const settled = stamp && settledAt(stamp, checkedAt) ? stamp : null
  return { file, key: file.slice(PUBLIC_DIR.length), stamp: settled, version: settled && `${settled.size}:${settled.mtimeMs}:${settled.dev}:${settled.ino}`, bytes: () => readPlainFile(absolute) }
}

/**
 * The entries of a folder of the project, by name, each a plain file or folder; a link or a special
 * file is a problem, and left out.
 */
function plainEntries(root: string, folder: string, problems: ContentError[]): ContentEntry[] {
  const entries: ContentEntry[] = []
  for (const dirent of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = `${folder}/${dirent.name}`
    if (dirent.isSymbolicLink()) problems.push(new NotAFileError(relative, 'link'))
    else if (!dirent.isFile() && !dirent.isDirectory()) problems.push(new NotAFileError(relative, 'special'))
    else entries.push({ name: dirent.name, path: relative, isDirectory: dirent.isDirectory() })
  }
  return entries.sort(byName)
}

/** Whether `folder` of the project is a folder to scan: there, and no link. */
function scannable(root: string, folder: string, problems: ContentError[]): boolean {
  const stat = fs.lstatSync(path.join(root, folder), { throwIfNoEntry: false })
  if (!stat) return false
  if (stat.isDirectory()) return true
  problems.push(new NotAFileError(folder, stat.isSymbolicLink() ? 'link' : 'special'))
  return false
}

/**
 * Scans `root`'s content/ and public/ once: their folders, pages, `_meta` files and public files,
 * refusing what is not a plain file or folder. Pass the last scan as `previous` (`npm run dev`) to
 * keep each page read then, and each public file checked then, unchanged since; and the page
 * store's record of the last build's scan as `recorded`, to take each page unchanged since from it
 * without reading it (./scanRecord.ts). Either way every entry's type is seen again: a link or a
 * special file put in place of an unchanged page is refused.
 */
export function scanContent(root: string, previous?: ContentSource, recorded?: ScanRecord): ContentSource {
  const folders = new Map<string, ContentEntry[]>()
  const pages: LoadedPage[] = []
  // A record made by other parsers (an upgrade, a fix) may hold what these would not read: none of it is used.
  const trusted = recorded?.parsers === scanParsers()
  const known = trusted ? recorded.pages : {}
  const knownMetas = (trusted && recorded.metas) || {}
  const lastReading = (file: string) => (previous?.byFile(file) as LoadedPage | undefined)?.reading ?? (Object.hasOwn(known, file) ? recordedReading(known[file]) : undefined)
  const unservable: string[] = []
  const metas: LoadedMeta[] = []
  const problems: ContentError[] = []
  const reads = new Map<string, number>()
  const walk = (folder: string) => {
    const entries = plainEntries(root, folder, problems)
    folders.set(folder, entries)
    for (const entry of entries) {
      if (entry.isDirectory) walk(entry.path)
      else if (PAGE_FILE.test(entry.name)) {
        const route = routeOfContentFile(entry.path)
        if (route === null) unservable.push(entry.path)
        else pages.push(new LoadedPage(root, entry.path, route, reads, lastReading(entry.path)))
      } else if (META_FILE.test(entry.name)) metas.push(contentMeta(root, entry.path, path.posix.join('/', folder.slice(CONTENT_DIR.length)), Object.hasOwn(knownMetas, entry.path) ? knownMetas[entry.path] : undefined))
    }
  }
  if (scannable(root, CONTENT_DIR, problems)) walk(CONTENT_DIR)
  const publicFiles: PublicFile[] = []
  const walkPublic = (folder: string) => {
    for (const entry of plainEntries(root, folder, problems)) {
      if (entry.isDirectory) walkPublic(entry.path)
      else {
        const checked = publicFile(root, entry.path, previous?.publicFile(entry.path.slice(PUBLIC_DIR.length)))
        if (checked instanceof ContentError) problems.push(checked)
        else publicFiles.push(checked)
      }
    }
  }
  if (scannable(root, PUBLIC_DIR, problems)) walkPublic(PUBLIC_DIR)
  pages.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  metas.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  const routes = new Map(pages.map((page) => [page.route, page]))
  const files = new Map(pages.map((page) => [page.file, page]))
  const metaByFolder = new Map(metas.map((meta) => [meta.folderRoute, meta]))
  const publicByKey = new Map(publicFiles.map((file) => [file.key, file]))
  let pageMap: RawItem[] | undefined
  const metaData = new Map<string, Record<string, unknown>>()
  const list = (folder: string) => folders.get(folder) ?? []
  return {
    root,
    pages,
    unservable,
    metas,
    metaOf: (folderRoute) => {
      let data = metaData.get(folderRoute)
      if (!data) {
        const meta = metaByFolder.get(folderRoute)
        if (!meta) throw new Error(`no _meta file in the folder of ${folderRoute}, though the page map names one`)
        // From the route the link check resolves them from (a folder named `index` is its parent's).
        metaData.set(folderRoute, (data = withSiteHrefs(meta.data, normalisePath(folderRoute) ?? folderRoute)))
      }
      return data
    },
    publicFiles,
    publicFile: (key) => publicByKey.get(key),
    problems,
    list,
    byRoute: (route) => routes.get(route),
    byFile: (file) => files.get(file),
    pageMap: () => (pageMap ??= collectPageMap(list, files)),
    reads,
    releaseTexts: () => releaseTexts(root, pages),
    scanRecord: () => ({ parsers: scanParsers(), pages: recordsOf(pages), metas: recordsOf(metas) }),
  }
}

/** What the store keeps of each page or `_meta` file that has a record, by file. */
function recordsOf<T>(files: readonly { file: string; record: () => T | undefined }[]): Record<string, T> {
  return Object.fromEntries(files.flatMap((file) => {
    const record = file.record()
    return record ? [[file.file, record]] : []
  }))
}

/** The route a page file under content/ is served at (`content/docs/leads/index.mdx` → `/docs/leads`); null when no request reaches it as itself. */
export function routeOfContentFile(file: string): string | null {
  return normalisePath(file.slice(CONTENT_DIR.length).replace(PAGE_FILE, ''))
}

/**
 * The front-matter fields that the navigation reads of a page map's page (Nextra's normalizePages:
 * the title it shows, whether it is hidden, its theme options; the AI tools' page tree: the title).
 * The page map ships in every page's props and the route manifests, so the rest (a description, a
 * writer's own fields) stays out: the descriptions alone were a large share of a page's props
 * (docs/benchmarks.md, figures behind choices in the code).
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
      if (!frontMatter.title) frontMatter.sidebarTitle ||= slugTitle(name)
      return [{ name, route: own, frontMatter }]
    }
    return META_FILE.test(entry.name) ? [{ data: entry.path }] : []
  })
}
