/**
 * The page store: what the build and `npm run dev` know of each page, in one file, so a step
 * decides what to do about a page without opening its documents. One record per page (by route):
 * its file and digest, its compile cache entry and outcome, the title and description it shows,
 * what its props were made from and their file, and the props file out/ was rendered from; and
 * the build whose out/ holds the pages. An unchanged page costs a lookup.
 *
 * The documents stay in the compile cache (.cache/mdx/, ../compile/compilePages.ts), whose entry
 * names hold the compiler's fingerprint: another compiler's record names another entry. The docs
 * route reads its own view, .cache/props.json (lib/render/propsFiles.ts), written from the store:
 * the runtime never imports pipeline/. `rm -rf .cache` forgets everything.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { NamedError } from '../content/contentError'
import type { FoundLink } from '../content/pageLinks'
import type { ScanRecord } from '../content/scanRecord'
import { readText, sameStamp, stampOf, writeAtomically, type FileStamp } from '../files'
import { CACHE_PATHS } from '../steps/paths'
import { applyChanges, changesSince, type Changes, type Whole } from './storeChanges'

export const STORE_FILE = CACHE_PATHS.store
const CHANGES_FILE = CACHE_PATHS.storeChanges
const RENDERING_FILE = CACHE_PATHS.storeRendering

/** Where the compiler stopped on a page that does not compile, and its message. */
export interface CompileProblem {
  reason: string
  line?: number
  column?: number
  /** Refused as data, not MDX that does not parse (../compile/compilePages.ts CompileFailure). */
  refused?: boolean
}

export interface PageRecord {
  /** The page's file, relative to the project. */
  file: string
  /** sha256 of its MDX when it was compiled. */
  digest: string
  /** Its compile cache entry, relative to the project (`.cache/mdx/<key>.json`). */
  entry: string
  /** Null when it compiled; else what the compiler said (a parser's message, cached like a success). */
  problem: CompileProblem | null
  /** As the page shows them: its compiled document's title (front matter, else first heading) or else its route; its front matter's description, or null. */
  title: string
  description: string | null
  /** What its props were made from (a hash) and their file under .cache/props/ (../render/pageProps.ts). */
  props?: { inputs: string; name: string }
  /** The props file out/'s files of this page were rendered from (../render/renderPlan.ts). */
  rendered?: string
  /** The links and images its compiled document holds (../compile/documentLinks.ts); absent in a record made before the store kept them. */
  links?: readonly FoundLink[]
  /** The ids its links' `#fragment`s can name, hashed (../compile/documentLinks.ts documentAnchors); absent in a record made before the store kept them. */
  anchors?: string
  /** What of its source no reader sees, which its Markdown leaves out (../compile/hiddenRanges.mjs); absent when nothing. */
  hidden?: HiddenRanges
}

/** Ranges `[start, end)` of a page's body (its file without front matter) that no reader sees: its comments, module code and unused link definitions (../compile/hiddenRanges.mjs). */
export type HiddenRanges = readonly (readonly [number, number])[]

/** What the store holds: one record per page (by route), and the build whose out/ holds them. */
interface StoreState {
  pages: Record<string, PageRecord>
  /** The build whose out/ holds the pages: its ID and `next build`'s own files of out/; null while one runs. */
  render: RenderedBuild | null
  /** What the content scan last read of each page, for the next scan to take unchanged ones from (../content/scanRecord.ts). */
  scan?: ScanRecord
}

/** What the build step left in out/ besides the docs pages (../render/renderPlan.ts). */
export interface RenderedBuild {
  buildId: string
  /** Every file `next build` wrote in out/ but the docs pages (client files, other pages), by key, with its sha256. */
  nextFiles: Record<string, string>
  /** Its server bundle's files in .next/ (server/…), with their sha256: what the renderer of a rebuild loads. */
  serverFiles?: Record<string, string>
  /** The docs pages' routes out/ holds: a rebuild in place removes the files of those the site no longer has. */
  routes?: string[]
  /** The audiences' own folders out/ holds (../render/renderPlan.ts audienceFoldersOf). */
  audienceFolders?: string
}

/** The store's two files' stamps: the whole write's, and its changes' (null when there are none). */
interface StoreStamp {
  whole: FileStamp
  changes: FileStamp | null
}

function storeStampOf(file: string): StoreStamp | null {
  const whole = stampOf(file)
  return whole && { whole, changes: stampOf(changesFileOf(file)) }
}

const sameStoreStamp = (a: StoreStamp, b: StoreStamp) => sameStamp(a.whole, b.whole) && (a.changes === null ? b.changes === null : b.changes !== null && sameStamp(a.changes, b.changes))

const changesFileOf = (file: string) => path.join(path.dirname(file), path.basename(CHANGES_FILE))

type StoreWhole = Whole<PageRecord, RenderedBuild | null>
type StoreChanges = Changes<PageRecord, RenderedBuild | null>

/** A copy of the maps of `state` as written whole: the store's later changes to its maps do not reach it. */
const wholeOf = (generation: string, state: StoreState): StoreWhole => ({
  generation,
  pages: { ...state.pages },
  render: state.render,
  scan: state.scan && { ...state.scan, pages: { ...state.scan.pages }, ...(state.scan.metas ? { metas: { ...state.scan.metas } } : {}) },
})

const frozen = <T extends object>(value: T): Readonly<T> => Object.freeze(value)

/**
 * The records, frozen where they are: the store takes them over (a parse of its file, a step's
 * result), and copying tens of thousands of records at every change would cost more than the step.
 */
function frozenRecords(records: Record<string, PageRecord>): Record<string, PageRecord> {
  for (const record of Object.values(records)) frozen(record)
  return { ...records }
}

/**
 * The one owner of the store: the steps read its records and change them only through its methods,
 * one for each step's change (the compile's records, the props, the render's start and end).
 * Records are frozen: a step that wrote into one would fail, not be lost. It is saved once per run:
 * when the render ends, or by `save` at the end of a run that renders nothing; not once per step,
 * as it holds every page. A save writes what changed since the file was last written whole
 * (./storeChanges.ts), and the whole file when much did. While a render runs, a small file beside it says so
 * (`RENDERING_FILE`), and a store read meanwhile, or after a run cut short, trusts no record of out/.
 */
export class PageStore {
  private state: StoreState
  /**
   * `file` null: a store in memory only (a test's, a benchmark's), which saves nothing. `stamp`:
   * its files' when this store was read from them; null when it was not, or a file changed as it
   * was read. Saving stamps it again. `whole`: the file as last written whole, which a save's
   * changes are made against; none: the next save writes it whole.
   */
  constructor(
    private readonly file: string | null,
    state: StoreState = { pages: {}, render: null },
    private readonly renderingFile: string | null = null,
    private stamp: StoreStamp | null = null,
    private whole: StoreWhole | null = null
  ) {
    this.state = { pages: frozenRecords(state.pages), render: state.render, scan: state.scan }
  }

  /** The whole write's render as JSON, made when a save first compares with it. */
  private wholeRender: string | undefined

  get pages(): Readonly<Record<string, Readonly<PageRecord>>> {
    return this.state.pages
  }

  get render(): Readonly<RenderedBuild> | null {
    return this.state.render
  }

  get scan(): Readonly<ScanRecord> | undefined {
    return this.state.scan
  }

  /** The content scan's result: what it read of each page, replacing the last scan's. */
  recordScan(scan: ScanRecord): void {
    this.state.scan = scan
  }

  /** The compile step's result: a record for each page the site has now; pages it has no record of are forgotten. */
  recordCompile(records: Record<string, PageRecord>): void {
    this.state.pages = frozenRecords(records)
  }

  /** The pages step's result: what each page's props were made from, and their file. */
  recordProps(props: Record<string, NonNullable<PageRecord['props']>>): void {
    for (const [route, made] of Object.entries(props)) {
      const record = this.state.pages[route]
      if (record && (record.props?.inputs !== made.inputs || record.props.name !== made.name)) this.state.pages[route] = frozen({ ...record, props: made })
    }
  }

  /** Before rendering: what out/ held is forgotten, so a build that stops half way renders everything next time. */
  startRender(): void {
    this.state.render = null
    if (this.renderingFile) writeAtomically(this.renderingFile, '')
  }

  /**
   * What out/ holds once the render ends: the props file each page's out/ files were rendered from,
   * and the build. Saved, while the render marker stays: when the outcome is known before the
   * render ends (a render in place), the store is written while Next renders, and a build that
   * stops before endRender leaves a store that trusts no record of out/.
   */
  recordRender(rendered: Readonly<Record<string, string>>, build: RenderedBuild): void {
    for (const [route, record] of Object.entries(this.state.pages)) if (record.rendered !== rendered[route]) this.state.pages[route] = frozen({ ...record, rendered: rendered[route] })
    this.state.render = build
    this.save()
  }

  /** The render ended, and out/ holds what recordRender recorded. */
  endRender(): void {
    if (this.renderingFile) fs.rmSync(this.renderingFile, { force: true })
  }

  /** After rendering: recordRender, then endRender. */
  finishRender(rendered: Readonly<Record<string, string>>, build: RenderedBuild): void {
    this.recordRender(rendered, build)
    this.endRender()
  }

  /** Writes every change so far, as one version: what changed since the last whole write, or the whole file. */
  save(): void {
    if (!this.file) return
    const { whole } = this
    const changes = whole && changesSince(whole, this.state, JSON.stringify(this.state.render) === (this.wholeRender ??= JSON.stringify(whole.render)))
    if (changes) {
      writeAtomically(changesFileOf(this.file), JSON.stringify(changes))
    } else {
      // A new generation: changes left by a save of the last one (a run stopped before removing them) are not applied to it.
      const generation = crypto.randomBytes(8).toString('hex')
      writeAtomically(this.file, JSON.stringify({ generation, ...this.state }))
      // No changes yet, written down: a changes file that is gone or damaged is then seen as such (readStore).
      writeAtomically(changesFileOf(this.file), JSON.stringify({ generation, pages: {}, scanPages: {}, scanMetas: {} } satisfies StoreChanges))
      this.whole = wholeOf(generation, this.state)
      this.wholeRender = undefined
    }
    this.stamp = storeStampOf(this.file)
  }

  /** Whether `file` holds this store as it is: this is its store, it read or saved its files, nothing wrote them since, and no render is under way. */
  isCurrent(file: string): boolean {
    if (this.file !== file || !this.stamp || (this.renderingFile && fs.existsSync(this.renderingFile))) return false
    const now = storeStampOf(file)
    return now !== null && sameStoreStamp(now, this.stamp)
  }
}

/**
 * The store of the project at `root`; an empty one when there is none or it cannot be read (everything is made again).
 * `last`, the store of the last run in this process (`npm run dev`'s checks), is taken as it is
 * when its file has not changed since that run read or saved it: parsing it again at each edit
 * cost time in proportion to the site.
 */
export function readStore(root: string, last?: PageStore): PageStore {
  const file = path.join(root, STORE_FILE)
  const rendering = path.join(root, RENDERING_FILE)
  if (last?.isCurrent(file)) return last
  try {
    const before = storeStampOf(file)
    const state = JSON.parse(readText(file)) as (StoreState & { generation?: unknown }) | null
    let changes: StoreChanges | null = null
    try {
      changes = JSON.parse(readText(changesFileOf(file))) as StoreChanges | null
    } catch {
      // None: the file is the store as it is.
    }
    const after = storeStampOf(file)
    if (state && typeof state.pages === 'object') {
      // Not copied: the store copies its pages as it takes them, and replaces its scan, never changing it.
      const read = { pages: state.pages, render: state.render ?? null, scan: state.scan }
      const whole = typeof state.generation === 'string' ? { generation: state.generation, ...read } : null
      // Every save leaves a changes file naming its whole write. None, a damaged one or one of another
      // write: the store is not as the last run left it (a file removed, a crash between the two
      // writes), and its record of out/ may be an older one's, which would keep pages rendered since.
      const intact = whole !== null && changes?.generation === whole.generation
      const current = intact ? applyChanges(whole, changes!) : read
      // A render under way (or cut short) leaves its marker: no record of out/ is trusted, and the file is not this store.
      const renderUnderWay = fs.existsSync(rendering)
      const stamp = intact && !renderUnderWay && before && after && sameStoreStamp(before, after) ? before : null
      return new PageStore(file, { pages: current.pages, render: renderUnderWay || !intact ? null : current.render, scan: current.scan }, rendering, stamp, whole)
    }
  } catch {
    // Absent or unreadable: a clean build.
  }
  return new PageStore(file, undefined, rendering)
}

export class StoredPageError extends NamedError {}

/** The title and description `route` shows, from its record: what the llms files and catalogs name it by, with no document read. */
export function storedPage(pages: PageStore['pages'], route: string): Pick<PageRecord, 'title' | 'description'> {
  const record = pages[route]
  if (!record) throw new StoredPageError(`no page for ${route} in ${STORE_FILE}; run the content step first`)
  if (record.problem) throw new StoredPageError(`${record.file} does not compile: ${record.problem.reason}`)
  return { title: record.title, description: record.description }
}
