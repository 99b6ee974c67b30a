/**
 * The page step, after the content step and the plan: what the one docs route
 * (pages/[[...slug]].tsx) renders each page from, written before `next build` as one JSON file per
 * page. A page's props are its compiled document, its part of its audience's page map and its
 * last-updated date, so the route reads a file and renders: no MDX, no page maps and no git
 * inside the bundler, whose bundle stays the same whatever the pages.
 *
 * Files are named by the hash of their bytes, and the index (PROPS_INDEX) maps each route to its
 * file: an unchanged page keeps its file, so what a change touches is known before anything renders.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { RawItem } from '../../lib/navigation/shapePageMap'
import { trimPageMap } from '../../lib/navigation/trimPageMap'
import type { PageIndex } from '../compile/compilePages'
import { writeAtomically } from '../compile/compilePages'
import { readCompiledPage } from '../compile/compiledPages'
import { sha256 } from '../compile/fingerprint'
import type { LastUpdated } from '../lastUpdated'
import { audiencePageMap, type PageMapInputs } from '../pageMaps'
import { audienceIdOf, type AggregatePlan } from '../../lib/access/planAggregates'
import { PROPS_DIR, PROPS_INDEX, type DocsPageProps, type PropsIndex } from '../../lib/render/propsFiles'

export interface PagePropsReport {
  /** Route → props file: what the docs route renders each page from. */
  index: PropsIndex
  pages: number
  /** Pages whose props changed since the last run (new pages included). */
  changed: string[]
  removed: string[]
}

/** What the pages step made each page's props from last time (./pageProps.ts). */
const PROPS_MEMO = '.cache/props-memo.json'

/**
 * The page's document as its props carry it: the search data stays in the build (the search step
 * reads it from the compile cache), so the page's HTML and data file carry only what it renders.
 */
function renderedDocument(root: string, index: PageIndex, route: string): DocsPageProps['doc'] {
  const { structurizedData: _searchData, ...doc } = readCompiledPage(root, index, route)
  return doc
}

/** Stores a page's props under the hash of their bytes (once) and returns the file's name. */
function storeProps(root: string, props: DocsPageProps): string {
  // JSON, as Next requires of props: no `undefined` anywhere.
  const json = JSON.stringify(props)
  const name = `${sha256(json).slice(0, 32)}.json`
  const file = path.join(root, PROPS_DIR, name)
  if (!fs.existsSync(file)) writeAtomically(file, json)
  return name
}

function readJson<T extends object>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  } catch {
    return {} as T
  }
}

/** What the pages step makes the props from: the earlier steps' results. */
export interface PagePropsInputs {
  /** The compile's index of each page's document (../compile/compilePages.ts). */
  index: PageIndex
  /** The whole site's page map (../content/contentSource.ts), and what shapes it per audience. */
  pageMap: RawItem[]
  pageMapInputs: PageMapInputs
  plan: Pick<AggregatePlan, 'audiences'>
  lastUpdated: LastUpdated
}

export function writePageProps(root: string, { index, pageMap: raw, pageMapInputs: inputs, plan, lastUpdated }: PagePropsInputs): PagePropsReport {
  const { access } = inputs
  const audienceMaps = new Map<string, RawItem[]>()
  const dir = path.join(root, PROPS_DIR)
  fs.mkdirSync(dir, { recursive: true })
  const indexFile = path.join(root, PROPS_INDEX)
  const previous = readJson<PropsIndex>(indexFile)
  const next: PropsIndex = {}
  const changed: string[] = []
  // A page's props are made from its compiled document (its cache entry, named by the page's bytes
  // and the compiler), its audience's page map and its date: with the same three, the same props
  // file, and the document is not read again.
  const memoFile = path.join(root, PROPS_MEMO)
  const memo = readJson<Record<string, { inputs: string; name: string }>>(memoFile)
  const nextMemo: typeof memo = {}
  const mapHashes = new Map<string, string>()
  for (const route of Object.keys(index).sort()) {
    const scope = audienceIdOf(access, route)
    let pageMap = audienceMaps.get(scope)
    if (!pageMap) {
      audienceMaps.set(scope, (pageMap = audiencePageMap(raw, scope, inputs, plan)))
      mapHashes.set(scope, sha256(JSON.stringify(pageMap)))
    }
    const timestamp = lastUpdated[index[route].file] ?? null
    const propsInputs = sha256(JSON.stringify([index[route].entry, mapHashes.get(scope), route, timestamp]))
    let name = memo[route]?.inputs === propsInputs ? memo[route].name : null
    if (name === null || !fs.existsSync(path.join(dir, name))) {
      name = storeProps(root, { doc: renderedDocument(root, index, route), pageMap: trimPageMap(pageMap, route), timestamp })
    }
    nextMemo[route] = { inputs: propsInputs, name }
    next[route] = name
    if (previous[route] !== name) changed.push(route)
  }
  writeAtomically(memoFile, JSON.stringify(nextMemo))
  writeAtomically(indexFile, JSON.stringify(next))
  const used = new Set(Object.values(next))
  for (const name of fs.readdirSync(dir)) if (!used.has(name)) fs.rmSync(path.join(dir, name), { force: true })
  return { index: next, pages: Object.keys(next).length, changed, removed: Object.keys(previous).filter((route) => !(route in next)) }
}

export function describePageProps(report: PagePropsReport): string {
  return `${report.pages} pages: ${report.changed.length} changed, ${report.removed.length} removed`
}

/**
 * `npm run dev` after edits to existing pages: each page's new props from its new document and its
 * last props' navigation and date, when the edit left its title and front matter as they were (so
 * no other page's navigation changed). False, writing nothing, when one did: then the whole page
 * step runs.
 */
export function updatePageProps(root: string, index: PageIndex, routes: readonly string[]): boolean {
  const indexFile = path.join(root, PROPS_INDEX)
  const props = readJson<PropsIndex>(indexFile)
  const updates: Array<[route: string, props: DocsPageProps]> = []
  for (const route of routes) {
    if (!props[route]) return false
    const last = JSON.parse(fs.readFileSync(path.join(root, PROPS_DIR, props[route]), 'utf8')) as DocsPageProps
    const doc = renderedDocument(root, index, route)
    if (JSON.stringify([doc.title, doc.frontMatter]) !== JSON.stringify([last.doc.title, last.doc.frontMatter])) return false
    updates.push([route, { ...last, doc }])
  }
  const memoFile = path.join(root, PROPS_MEMO)
  const memo = readJson<Record<string, unknown>>(memoFile)
  for (const [route, next] of updates) {
    props[route] = storeProps(root, next)
    // Made from other inputs than the pages step's: it makes this page's props again next time.
    delete memo[route]
  }
  writeAtomically(memoFile, JSON.stringify(memo))
  writeAtomically(indexFile, JSON.stringify(props))
  return true
}
