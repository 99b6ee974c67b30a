/**
 * A folder's `_meta` file must be data (../content/metaData.ts) and name only what the folder holds, or the
 * build fails late. Nextra checks the keys only while it prerenders a page, on that page's page map:
 * a key that names no page fails on whichever page comes first, with a message that names the key
 * but not the file. Each key here must name a page of the folder (`<key>.mdx` or `<key>.md`) or a
 * folder in it that holds pages; an entry that is no page (a separator, a menu or a link) names
 * nothing, and `*` holds every entry's defaults. The check reads the folder as it is on disk, not
 * any reader's view of it, so an entry for a page that a finer rule hides from some readers stays
 * valid (each reader's page map drops it).
 */
import path from 'node:path'
import { BadMetaFileError } from '../content/metaData'
import { CONTENT_DIR, DOCS_DIR, META_FILE, PAGE_FILE as PAGE, type ContentMeta, type ContentSource } from '../content/contentSource'
import { ContentError, locate } from '../content/contentError'
import { PageSettingsError, pageSettingsProblem } from '../content/pageSettings'
import { valueKind } from '../content/frontMatter'
import { textFieldProblem } from '../../lib/plainText.mjs'

/** A `_meta` key that names no page or folder of its folder. */
export class UnknownMetaKeyError extends ContentError {
  constructor(file: string, readonly key: string, holds: readonly string[], line?: number, column?: number) {
    const folder = path.posix.dirname(file)
    const within = key.includes('.items.') ? `the folder ${folder}/${key.split('.items.')[0]}/` : `${folder}/`
    const listed = holds.length > 0 ? `it holds ${holds.join(', ')}` : 'it holds no page'
    super(
      file,
      `${locate(file, line, column)}the key "${key}" names no page or folder in ${within} (${listed}). ` +
        "Make the key a page's file name without its extension, or a folder's name, or remove it; an entry that is not a page needs type: 'separator', type: 'menu' or an href."
    )
  }
}

/** A folder's `_meta` key `index`: the folder's own page is shown as the folder, titled from the parent's `_meta`, and Nextra fails the render on the key. */
export class IndexMetaKeyError extends ContentError {
  constructor(file: string, line?: number, column?: number) {
    const folder = path.posix.dirname(file)
    super(
      file,
      `${locate(file, line, column)}the key "index" titles ${folder}/index, which the sidebar shows as the folder itself, titled by the folder's entry in the _meta above it or by the page's own front matter (title:): remove this key.`
    )
  }
}

/**
 * An entry of content/docs/_meta for a section: the navbar's tabs are the sections each reader may
 * open, titled and ordered by access.config.ts, so the entry would change nothing, and say nothing.
 */
export class SectionMetaKeyError extends ContentError {
  constructor(file: string, readonly key: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}the key "${key}" names a section, whose tab, title and place are its entry in access.config.ts (\`sections\`, an admin's); this entry changes nothing: remove it.`)
  }
}

/**
 * An entry of the top `_meta` (content/) that would be in every reader's navbar: a link, a menu, a
 * separator, or the home page or `docs/` shown. The navbar's tabs are the sections a reader may open.
 */
export class NavbarEntryError extends ContentError {
  constructor(file: string, key: string, line?: number, column?: number, where: 'entry' | 'front matter' = 'entry') {
    super(
      file,
      `${locate(file, line, column)}${where === 'entry' ? `the entry "${key}"` : `the front matter's ${key}`} would be in every reader's navbar, which is the site's (its tabs are the sections each reader may open): ` +
        "the top _meta names only the home page and docs/, each with display: 'hidden', which their front matter may not change. Put links and menus in a section's _meta."
    )
  }
}

/** `type: 'page'` below the top: Nextra makes it a navbar tab only at the top, and elsewhere leaves the page out of the sidebar. */
export class NestedPageTypeError extends ContentError {
  constructor(file: string, key: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}the entry "${key}" has type: 'page', which would leave it out of the sidebar (only the top _meta makes navbar tabs): remove type.`)
  }
}

/** A `_meta.json`, which Nextra 3 refuses. */
export class MetaJsonError extends ContentError {
  constructor(file: string) {
    const renamed = file.replace(/\.json$/, '.ts')
    super(file, `${file}: Nextra 3 does not read _meta.json; move its entries to ${renamed} as \`export default { … }\`, and delete this file.`)
  }
}

/** Each folder's answer, per scan: every `_meta` file above a folder asks about it again. */
const folderHoldsPages = new WeakMap<ContentSource, Map<string, boolean>>()

/** Whether Nextra's page map keeps a folder: it holds a page or a `_meta` file, at any depth. */
function holdsPages(source: ContentSource, folder: string): boolean {
  let known = folderHoldsPages.get(source)
  if (!known) folderHoldsPages.set(source, (known = new Map()))
  let holds = known.get(folder)
  if (holds === undefined) {
    holds = source.list(folder).some((entry) => (entry.isDirectory ? holdsPages(source, entry.path) : PAGE.test(entry.name) || META_FILE.test(entry.name)))
    known.set(folder, holds)
  }
  return holds
}

/** What a key of the folder's `_meta` may name: its pages (`intro.mdx`) and the folders that hold pages (`endpoints/`). */
function folderItems(source: ContentSource, folder: string): { names: Set<string>; shown: string[] } {
  const names = new Set<string>()
  const shown: string[] = []
  for (const entry of source.list(folder)) {
    if (entry.isDirectory ? holdsPages(source, entry.path) : PAGE.test(entry.name)) {
      names.add(entry.isDirectory ? entry.name : entry.name.replace(PAGE, ''))
      shown.push(entry.isDirectory ? `${entry.name}/` : entry.name)
    }
  }
  return { names, shown }
}

/**
 * Where a key is written in the file: the first property of that name at or after line `from`
 * (counting from 1), at the start of a line or after `{` or `,`.
 */
function keyPosition(lines: readonly string[], key: string, from = 1): { line?: number; column?: number } {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`(^\\s*|[{,]\\s*)(['"\`]?)${escaped}\\2\\s*:`)
  for (let index = from - 1; index < lines.length; index++) {
    const match = pattern.exec(lines[index])
    if (match) return { line: index + 1, column: match.index + match[1].length + 1 }
  }
  return {}
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An entry that Nextra shows without a page of its own. */
const isOwnEntry = (value: unknown) => isObject(value) && (value.type === 'separator' || value.type === 'menu' || Boolean(value.href))

/** An entry's settings and its menu's items, each with where it is written (`menu.items.a`). */
const entryAndItems = (key: string, value: Record<string, unknown>): [string, unknown][] => [
  [key, value],
  ...(isObject(value.items) ? Object.entries(value.items).map(([item, entry]): [string, unknown] => [`${key}.items.${item}`, entry]) : []),
]

/** What is not text where the sidebar or the navbar shows text: an entry, its title, a menu item's title. */
function titleProblem(key: string, value: unknown): string | null {
  if (typeof value !== 'string' && !isObject(value)) return `the entry "${key}" is ${valueKind(value)}: an entry is its title ('Title') or its settings ({ title: 'Title', … }).`
  // A menu item may be its title alone.
  const titled = isObject(value) ? entryAndItems(key, value).map(([where, entry]) => [where, isObject(entry) ? entry.title : entry]) : []
  for (const [where, title] of typeof value === 'string' ? [[key, value]] : titled) {
    if (title !== undefined && typeof title !== 'string') return `the title of "${where}" is ${valueKind(title)}, and it is shown as text: write it in quotes.`
    const problem = textFieldProblem('title', title)
    if (problem) return `the title of "${where}" ${problem}.`
  }
  return null
}

/** A source's `_meta` files by their folder, sorted by file, made once per list: the check looks up each of them. */
const metasByFolder = new WeakMap<readonly ContentMeta[], Map<string, ContentMeta[]>>()

function folderMetas(source: ContentSource, folder: string): readonly ContentMeta[] {
  let byFolder = metasByFolder.get(source.metas)
  if (!byFolder) {
    byFolder = new Map()
    for (const meta of source.metas) {
      const metaFolder = path.posix.dirname(meta.file)
      byFolder.set(metaFolder, [...(byFolder.get(metaFolder) ?? []), meta])
    }
    metasByFolder.set(source.metas, byFolder)
  }
  return byFolder.get(folder) ?? []
}

/**
 * A link that is not an address, where Nextra makes one: an entry's or a menu item's `href` (a list
 * reaches the sidebar's `<a>` as its text, past every link check), or a `newWindow` that is not
 * true or false.
 */
function linkProblem(key: string, value: unknown): string | null {
  if (!isObject(value)) return null
  for (const [where, entry] of entryAndItems(key, value)) {
    if (!isObject(entry)) continue
    if (entry.href !== undefined && typeof entry.href !== 'string') return `the link of "${where}" is ${valueKind(entry.href)}; a link is an address in quotes ('https://…' or '/docs/…').`
    if (entry.newWindow !== undefined && typeof entry.newWindow !== 'boolean') return `the newWindow of "${where}" is ${valueKind(entry.newWindow)}; it is true or false.`
  }
  return null
}

/**
 * The fields Nextra documents for an entry and for a menu's item (its schema, nextra/dist/server/
 * schemas.js). Nextra spreads an entry into the sidebar item it makes, so any other field, such as
 * its page map's own `route`, `frontMatter` or `children`, would reach the sidebar, a menu or the
 * page's settings with no check: a `route` is a link, a `frontMatter.theme` the page's layout.
 */
const ENTRY_FIELDS = ['title', 'type', 'href', 'newWindow', 'display', 'theme', 'items']
const MENU_ITEM_FIELDS = ['title', 'href', 'newWindow']

/** A field that is none of Nextra's documented ones, in an entry or its menu's items. */
function fieldProblem(key: string, value: unknown): string | null {
  if (!isObject(value)) return null
  for (const [where, entry] of entryAndItems(key, value)) {
    if (!isObject(entry)) continue
    const fields = where === key ? ENTRY_FIELDS : MENU_ITEM_FIELDS
    const unknown = Object.keys(entry).find((field) => !fields.includes(field))
    if (unknown !== undefined) return `"${where}" has the field "${unknown}", which is not one of ${where === key ? "an entry's" : "a menu item's"}: ${fields.join(', ')}.`
  }
  if (value.items !== undefined && value.type !== 'menu') return `"${key}" has items, which only an entry of type: 'menu' shows.`
  return null
}

/** The problems of one `_meta` file of `source` (its file, relative to the project). */
export function checkMetaFile(source: ContentSource, file: string): ContentError[] {
  if (file.endsWith('.json')) return [new MetaJsonError(file)]
  const folder = path.posix.dirname(file)
  const inFolder = folderMetas(source, folder)
  const meta = inFolder.find((candidate) => candidate.file === file)
  if (!meta) return []
  const twin = inFolder.find((other) => other !== meta)
  if (twin && twin.file < file) return [new BadMetaFileError(file, `${twin.file} is this folder's _meta file already; keep one of the two.`)]
  let data: Record<string, unknown>
  try {
    data = meta.data
  } catch (error) {
    if (error instanceof ContentError) return [error]
    throw error
  }
  // Its text only to place a problem: an unchanged file's data comes from the scan's record.
  let text: string[] | undefined
  const lines = () => (text ??= meta.text.split('\n'))
  const items = folderItems(source, folder)
  const problems: ContentError[] = []
  const unknown = (key: string, holds: readonly string[], position: { line?: number; column?: number }) => problems.push(new UnknownMetaKeyError(file, key, holds, position.line, position.column))
  for (const [key, value] of Object.entries(data)) {
    const notText = fieldProblem(key, value) ?? titleProblem(key, value) ?? linkProblem(key, value)
    if (notText) {
      const { line, column } = keyPosition(lines(), key)
      problems.push(new BadMetaFileError(file, notText, line, column))
      continue
    }
    const settings = isObject(value) ? pageSettingsProblem(value, `${key}.`) : null
    if (settings) {
      const { line, column } = keyPosition(lines(), key)
      problems.push(new PageSettingsError(file, settings.problem, line, column))
    }
    if (folder === CONTENT_DIR ? !items.names.has(key) || !isObject(value) || value.display !== 'hidden' : isObject(value) && value.type === 'page') {
      const { line, column } = keyPosition(lines(), key)
      problems.push(folder === CONTENT_DIR ? new NavbarEntryError(file, key, line, column) : new NestedPageTypeError(file, key, line, column))
      continue
    }
    if (key === '*') continue
    if (folder === DOCS_DIR && key !== 'index' && items.names.has(key)) {
      const { line, column } = keyPosition(lines(), key)
      problems.push(new SectionMetaKeyError(file, key, line, column))
      continue
    }
    // The home page's `index` at the top of content/ is a page of its own; a folder's is the folder.
    if (key === 'index' && folder !== CONTENT_DIR) {
      const { line, column } = keyPosition(lines(), key)
      problems.push(new IndexMetaKeyError(file, line, column))
      continue
    }
    if (!items.names.has(key)) {
      if (!isOwnEntry(value)) unknown(key, items.shown, keyPosition(lines(), key))
      continue
    }
    // A menu's items name pages of the folder it is named after, unless they are links.
    if (isObject(value) && value.type === 'menu' && isObject(value.items) && source.list(folder).some((entry) => entry.isDirectory && entry.name === key)) {
      const children = folderItems(source, `${folder}/${key}`)
      for (const [item, entry] of Object.entries(value.items)) {
        if (!children.names.has(item) && !(isObject(entry) && entry.href)) unknown(`${key}.items.${item}`, children.shown, keyPosition(lines(), item, keyPosition(lines(), key).line))
      }
    }
  }
  return problems
}
