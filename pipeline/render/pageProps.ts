/**
 * The page step, after the content step and the plan: what the one docs route
 * (pages/[[...slug]].tsx) renders each page from, written before `next build` as one JSON file per
 * page. A page's props are its compiled document, its part of its audience's page map and its
 * last-updated date, so the route reads a file and renders: no MDX, no page maps and no git
 * inside the bundler, whose bundle stays the same whatever the pages.
 *
 * Files are named by the hash of their bytes, and the index (PROPS_INDEX) maps each route to its
 * file: an unchanged page keeps its file, so what a change touches is known before anything renders.
 * What each page's props were made from is kept in its record of the page store
 * (../store/pageStore.ts), which the index is written from: the docs route reads the index, never
 * the store, whose module is the build's.
 */
import fs from 'node:fs'
import path from 'node:path'
import { packPageMap } from '../../lib/navigation/packedPageMap'
import { trimPageMap } from '../../lib/navigation/trimPageMap'
import { readJsonObject, sha256, writeAtomically } from '../files'
import { readCompiledPage } from '../compile/readDocuments'
import type { LastUpdated } from '../lastUpdated'
import type { AggregatePlan } from '../../lib/access/planAggregates'
import type { Navigation } from '../navigationRecord'
import { PROPS_DIR, PROPS_FORMAT, PROPS_INDEX, propsFileName, type DocsPageProps, type PropsIndex } from '../../lib/render/propsFiles'
import { packDocument } from '../../lib/render/packedDocument'
import type { PageRecord, PageStore } from '../store/pageStore'

export interface PagePropsReport {
  /** Route → props file: what the docs route renders each page from. */
  index: PropsIndex
  pages: number
  /** Pages whose props changed since the last run (new pages included). */
  changed: string[]
  removed: string[]
}


/** Stores a page's props under the hash of their bytes (once) and returns the file's name. */
function storeProps(root: string, props: DocsPageProps): string {
  // JSON, as Next requires of props: no `undefined` anywhere.
  const json = JSON.stringify(props)
  const name = propsFileName(json)
  const file = path.join(root, PROPS_DIR, name)
  if (!fs.existsSync(file)) writeAtomically(file, json)
  return name
}

/** What the pages step makes the props from: the earlier steps' results. */
export interface PagePropsInputs {
  /** Each page's audience, from the run's plan. */
  audienceOf: AggregatePlan['audienceOf']
  /** Each audience's page map (../navigationRecord.ts). */
  navigation: Pick<Navigation, 'audienceMap' | 'audienceHash'>
  lastUpdated: LastUpdated
}

/**
 * Each page's props, for every page of the store: made again only for a page whose document, its
 * audience's page map or its date changed (an edit of a page's text changes its own; a new title,
 * a page added or removed, a `_meta` edit change its audiences' page maps, and so their pages').
 * Writes the index the docs route reads, and the store.
 */
export function writePageProps(root: string, store: PageStore, { audienceOf, navigation, lastUpdated }: PagePropsInputs): PagePropsReport {
  const dir = path.join(root, PROPS_DIR)
  fs.mkdirSync(dir, { recursive: true })
  const stored = new Set(fs.readdirSync(dir))
  const next: PropsIndex = {}
  const changed: string[] = []
  const made: Record<string, NonNullable<PageRecord['props']>> = {}
  for (const route of Object.keys(store.pages).sort()) {
    const record = store.pages[route]
    const audience = audienceOf[route]
    if (audience === undefined) throw new Error(`${route} is in no audience of the plan; the plan is made from the pages the store holds`)
    // A page's props are made from its compiled document (its cache entry, named by the page's
    // bytes and the compiler), its audience's page map and its date, in the props' format: with the
    // same four, the same props file, and the document is not read again.
    const timestamp = lastUpdated[record.file] ?? null
    const inputsHash = sha256(JSON.stringify([PROPS_FORMAT, record.entry, navigation.audienceHash(audience), route, timestamp]))
    const last = record.props
    const name =
      last?.inputs === inputsHash && stored.has(last.name) ? last.name : storeProps(root, { doc: packDocument(readCompiledPage(root, store.pages, route)), pageMap: packPageMap(trimPageMap(navigation.audienceMap(audience), route)), timestamp })
    if (last?.name !== name) changed.push(route)
    made[route] = { inputs: inputsHash, name }
    next[route] = name
  }
  const indexFile = path.join(root, PROPS_INDEX)
  // Only to tell which pages went: an index that cannot be read (damaged by hand) names none.
  const previous = (readJsonObject(indexFile) ?? {}) as PropsIndex
  writeAtomically(indexFile, JSON.stringify(next))
  store.recordProps(made)
  const used = new Set(Object.values(next))
  for (const name of stored) if (!used.has(name)) fs.rmSync(path.join(dir, name), { force: true })
  return { index: next, pages: Object.keys(next).length, changed, removed: Object.keys(previous).filter((route) => !(route in next)) }
}

export function describePageProps(report: PagePropsReport): string {
  return `${report.pages} pages: ${report.changed.length} changed, ${report.removed.length} removed`
}
