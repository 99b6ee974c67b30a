/**
 * Fails the build on content whose place or name the site cannot serve as the writer meant, before
 * anything else reads it (the build's first step, checkAndCompile below, before the link check):
 *
 * - an entry directly under content/docs/ that is not a declared section's folder, `_meta.*` or the
 *   /docs index page. Its pages would belong to no section: the fallback rule would show them to
 *   its readers only, with no tab, and nothing else would say so;
 * - a page or folder whose name is not a slug (lowercase letters, digits, hyphens, underscores;
 *   no dot but a page's extension). `NewPage.mdx` would be served at `/docs/leads/NewPage`, a
 *   route the rules, the link check and the edge all know only as `/docs/leads/newpage`;
 * - two pages of one route (`intro.md` and `intro.mdx`, or `api.mdx` and `api/index.mdx`): Next
 *   would serve one of them and warn about the other among its build output;
 * - a page whose front matter Nextra cannot read (./checkFrontMatter.ts), and a `_meta` file that
 *   does not compile or names no page (./checkMetaFiles.ts). Nextra would fail on either later,
 *   with a parser's message that names no file;
 * - with checkAndCompile, the build's first step: a page whose MDX does not compile, at the place
 *   the compiler names (../compile/compilePages.ts). `next build` would fail on it deep in the
 *   bundler, with a stack and no usable line.
 *
 * Each problem is an error of its own type that names the file or folder and the fix; the build
 * reports all of them at once, in one BadContentError.
 */
import path from 'node:path'
import { access, normalisePath } from '../../lib/access'
import { CONTENT_DIR, DOCS_DIR, isPublicFileType, META_FILE, PAGE_FILE as PAGE, PUBLIC_DIR, type ContentEntry, type ContentPage, type ContentSource } from '../content/contentSource'
import { readStore, type PageStore } from '../store/pageStore'
import { scanParsers } from '../content/scanRecord'
import { checkMetaFile, NavbarEntryError } from './checkMetaFiles'
import { ContentError, NamedError } from '../content/contentError'
import { nestingProblem } from '../content/nesting'
import { compilePages, MDX_FIX_HINT, MdxCompileError, type CompileOptions, type CompileReport } from '../compile/compilePages'
import { slugTitle } from '../../lib/navigation/slugTitle'
import { isReservedSegment } from '../../lib/access/sectionPaths'

/**
 * The longest name of a page or folder: the build names files after it with a suffix
 * (`<name>.html`, `<name>.md`, its props' `<name>.json`), and a file name holds at most 255 bytes.
 */
export const MAX_SLUG_LENGTH = 200

/** A page's or folder's name segment: lowercase letters, digits, hyphens or underscores, not a reserved one (`_meta`'s, and the site's own), and not too long. */
const isSlug = (name: string) => /^[a-z0-9_-]+$/.test(name) && !isReservedSegment(name) && name.length <= MAX_SLUG_LENGTH
const META = /^_meta\./
const INDEX_PAGE = /^index\.mdx?$/

/** `NewPage` → `new-page`, `Release Notes v2.1` → `release-notes-v2-1`, `Café` → `cafe`. */
export function slugFor(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
}

/** A section's id is a hyphenated slug (lib/access/compileAccess.ts): no underscores. */
const sectionIdFor = (name: string) => slugFor(name).replace(/_+/g, '-').replace(/-{2,}/g, '-').replace(/^-|-$/g, '') || 'new-section'

const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())

/** A folder at the top of content/ other than docs/: its pages would have no section, no tab and no sidebar. */
export class StrayContentFolderError extends ContentError {
  constructor(entry: string, declared: readonly string[]) {
    const folders = declared.map((id) => `${DOCS_DIR}/${id}/`).join(', ')
    super(
      entry,
      `${entry}/: the top of ${CONTENT_DIR}/ holds the home page and ${DOCS_DIR}/ only. Pages in this folder would be served at /${path.posix.basename(entry)}/… to the fallback rule's readers only (\`fallback\` in access.config.ts), with no tab or sidebar. Move them into a section's folder (${folders}).`
    )
  }
}

/**
 * A page at the top of content/ other than the home page: its route (/login, /unauthorized, /docs,
 * /handbook) would replace one of the site's own pages or fall to the fallback rule, with no tab.
 */
export class StrayContentPageError extends ContentError {
  constructor(entry: string, declared: readonly string[]) {
    const folders = declared.map((id) => `${DOCS_DIR}/${id}/`).join(', ')
    super(
      entry,
      `${entry}: the top of ${CONTENT_DIR}/ holds the home page (index.mdx) and ${DOCS_DIR}/ only. This page would be served at /${path.posix.basename(entry).replace(PAGE, '')}, in place of a page of the site's own (sign-in, no access, /docs) or to the fallback rule's readers only (\`fallback\` in access.config.ts), with no tab. Move it into a section's folder (${folders}).`
    )
  }
}

/**
 * A file under content/ that is no page and no `_meta` file: nothing reads it, so a page meant by
 * it (`Intro.MDX`), an image beside its page or a `_meta.yaml` would be missing from the site with
 * nothing said. Hidden files (`.DS_Store`, `.gitkeep`) are an editor's or the system's, not a writer's.
 */
export class NotContentFileError extends ContentError {
  constructor(file: string) {
    const name = path.posix.basename(file)
    const extension = path.posix.extname(name).toLowerCase()
    const inPublic = `${PUBLIC_DIR}/${file.slice(CONTENT_DIR.length + 1)}`
    const fix = META.test(name)
      ? 'a _meta file is _meta.ts (or .tsx, .js, .jsx, .mjs): rename it'
      : extension === '.md' || extension === '.mdx'
        ? `a page's name is a lowercase slug: rename it to ${path.posix.dirname(file)}/${slugFor(name.slice(0, -extension.length))}${extension}`
        : isPublicFileType(extension)
          ? `images and downloads live under ${PUBLIC_DIR}/: move it to ${inPublic} and link it as /${inPublic.slice(PUBLIC_DIR.length + 1)}`
          : `move it out of ${CONTENT_DIR}/, or delete it`
    super(file, `${file}: ${CONTENT_DIR}/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; ${fix}.`)
  }
}

/**
 * An entry directly under content/docs/ that no section declares: a folder (its pages would fall
 * to the fallback rule), a page (it belongs to no section) or any other file.
 */
export class UndeclaredSectionError extends ContentError {
  constructor(entry: string, kind: 'folder' | 'page' | 'file', declared: readonly string[], entryPage = 'intro') {
    const folders = declared.map((id) => `${DOCS_DIR}/${id}/`).join(', ')
    const name = path.posix.basename(entry)
    const id = sectionIdFor(kind === 'page' ? name.replace(PAGE, '') : name)
    const rename = id === name ? '' : ` (and rename the folder to ${DOCS_DIR}/${id}/: a section id is a lowercase slug)`
    const declare = [
      `  To make it a section, declare it in \`sections\` of access.config.ts, with a list of its readers in \`lists\`${rename} (docs/access.md, "Add a section"):`,
      `    lists: { …, ${camel(id)}Users: 'user1, group:${id}' },`,
      `    sections: [ …, { id: '${id}', title: '${slugTitle(id)}', description: '…', entry: '/docs/${id}/${entryPage}', readers: '${camel(id)}Users' } ],`,
    ]
    const lines =
      kind === 'folder'
        ? [
            `${entry}/: no section in access.config.ts declares this folder, so its pages would be readable by the fallback rule's readers only (\`fallback\` in access.config.ts), with no tab.`,
            ...declare,
            `  or move its pages into a declared section's folder (${folders}).`,
          ]
        : kind === 'page'
          ? [
              `${entry}: a page directly under ${DOCS_DIR}/ belongs to no section (only index.mdx, the /docs page, may be there).`,
              `  Move it into a declared section's folder (${folders}), or make a section for it: a folder ${DOCS_DIR}/${id}/ with this page in it, declared in \`sections\` of access.config.ts (docs/access.md, "Add a section").`,
            ]
          : [`${entry}: only section folders (${folders}), _meta.ts and index.mdx may be directly under ${DOCS_DIR}/; move this file into a section's folder or delete it.`]
    super(kind === 'folder' ? `${entry}/` : entry, lines.join('\n'))
  }
}

/**
 * A folder of public/docs/ that no section declares, or a file directly in it: its files would be
 * served by the fallback rule, not a section's (wider, where the fallback is signedIn), as pages
 * of an undeclared content folder would be; the content check refuses those too.
 */
export class UndeclaredPublicFolderError extends ContentError {
  constructor(entry: string, declared: readonly string[]) {
    const folders = declared.map((id) => `${PUBLIC_DIR}/docs/${id}/`).join(', ')
    super(entry, `${entry}: no section in access.config.ts declares ${entry.endsWith('/') ? 'this folder' : 'the folder this file is in'}, so its files would be served to the fallback rule's readers (\`fallback\` in access.config.ts), not a section's; move them into a declared section's folder (${folders}), or declare the section (docs/access.md, "Add a section").`)
  }
}

/** Two files of public/ that the edge reads as one route: one rule decides both, whichever it was written for. */
export class PublicFileTwinsError extends ContentError {
  constructor(file: string, twin: string) {
    super(file, `${file}: the site reads its path as that of ${twin} (it compares paths in lower case, accents composed), so one rule decides both, whichever of them it was written for, and a disk that ignores case keeps only one. Rename one of them.`)
  }
}

/** A page or folder whose name is not a lowercase slug; names the file and what to call it instead. */
export class BadSlugError extends ContentError {
  /** The path it should have, relative to the project. */
  readonly suggestion: string

  /** `exists`: whether a path is already taken, so the name it suggests is none another page or folder has. */
  constructor(entry: string, kind: 'folder' | 'page', exists: (path: string) => boolean = () => false) {
    const name = path.posix.basename(entry)
    const extension = kind === 'page' ? (name.match(PAGE)?.[0] ?? '') : ''
    const base = name.slice(0, name.length - extension.length)
    const slug = slugFor(base).slice(0, MAX_SLUG_LENGTH).replace(/[-_]+$/, '')
    const suggested = slug ? path.posix.join(path.posix.dirname(entry), slug + extension) : null
    const renamed = suggested && !exists(suggested) ? suggested : null
    const rule =
      slugFor(base) === base && base.length > MAX_SLUG_LENGTH
        ? `it is ${base.length} characters long, and names are at most ${MAX_SLUG_LENGTH}: the build names files after it, and a file name holds at most 255 bytes`
        : 'slugs are lowercase letters, digits, hyphens and underscores, not starting with an underscore, with no dot but the extension'
    const fix = renamed
      ? `rename it to ${renamed}${kind === 'folder' ? '/' : ''}, and change the links and the _meta.ts key that name it`
      : `give it a name of lowercase letters, digits, hyphens or underscores${suggested ? ` (not ${suggested}${kind === 'folder' ? '/' : ''}, which exists)` : ''}`
    const shown = kind === 'folder' ? `${entry}/` : entry
    super(shown, `${shown}: "${name}" is not a valid ${kind === 'folder' ? 'folder' : 'page'} name (${rule}); ${fix}.`)
    this.suggestion = renamed ? renamed + (kind === 'folder' ? '/' : '') : ''
  }
}

/** Two pages that would be served at one route; names the second, in path order, and the first. */
export class DuplicatePageError extends ContentError {
  constructor(file: string, readonly other: string, route: string) {
    super(file, `${file}: ${other} is served at the same route, ${route}, and only one of them can be; merge the two pages, or rename one (and the links and the _meta.ts key that name it).`)
  }
}

/**
 * Every content problem, each named; thrown by checkAndCompile, so the build
 * reports them all at once. Pages that do not compile are followed by one line on how to fix MDX.
 */
export class BadContentError extends NamedError {
  constructor(readonly problems: readonly ContentError[]) {
    // How to fix MDX that does not parse; a page refused as data has its fix in its own message.
    const hint = problems.some((problem) => problem instanceof MdxCompileError && !problem.refused) ? [MDX_FIX_HINT] : []
    super([...problems.map((problem) => problem.message), ...hint, `checkContent: ${problems.length} problem(s) under ${DOCS_DIR}/; fix them before building`].join('\n'))
  }
}

/** An editor's or the system's file, not a writer's: hidden (`.DS_Store`, `.gitkeep`), a backup (`intro.mdx~`, `#intro.mdx#`), vim's probe (`4913`), Windows' `Thumbs.db`. */
const isHiddenFile = (entry: ContentEntry) =>
  !entry.isDirectory && ((entry.name.startsWith('.') && !PAGE.test(entry.name)) || /~$|^#.*#$|^\d+$|^(?:thumbs\.db|desktop\.ini)$/i.test(entry.name))

/** The page a new section's example entry points at: its intro page, or its first page. */
function entryPageOf(source: ContentSource, folder: string): string {
  const pages = source.list(folder).filter((entry) => !entry.isDirectory && PAGE.test(entry.name) && !INDEX_PAGE.test(entry.name))
  const names = pages.map((entry) => slugFor(entry.name.replace(PAGE, ''))).filter(Boolean).sort()
  return names.includes('intro') ? 'intro' : (names[0] ?? 'intro')
}

/** Which pages' front matter to read: all of them, or those whose text the store has not seen pass. */
type Unchecked = (page: ContentPage) => boolean

/** A page's front matter, as the content source parses it once (../content/frontMatter.ts). */
function checkPage(source: ContentSource, file: string, problems: ContentError[], unchecked: Unchecked, top = false): void {
  const page = source.byFile(file)
  if (!page) return
  try {
    // Whether it changed reads it (its digest), which a file that is no UTF-8 text fails.
    if (!unchecked(page)) return
    // The home page's and /docs's `display` overrides the top _meta's hidden (Nextra's extendMeta): a navbar entry of every reader's.
    const { display } = page.frontMatter
    if (top && display !== undefined) problems.push(new NavbarEntryError(file, 'display', undefined, undefined, 'front matter'))
    const nesting = nestingProblem(file, page.text)
    if (nesting) problems.push(nesting)
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    problems.push(error)
  }
}

/** A file that is a folder's `_meta` (or the `_meta.json` Nextra 3 refuses). */
const isMetaFile = (name: string) => META_FILE.test(name) || name === '_meta.json'

/** Each page after the first of its route, in path order. */
function duplicatePages(source: ContentSource, pages: readonly string[]): ContentError[] {
  const first = new Map<string, string>()
  const problems: ContentError[] = []
  for (const file of [...pages].sort()) {
    const route = source.byFile(file)?.route
    if (route === undefined) continue // No request reaches it as itself: the link check refuses it.
    const other = first.get(route)
    if (other) problems.push(new DuplicatePageError(file, other, route))
    else first.set(route, file)
  }
  return problems
}

/**
 * A declared section's folder, recursively: every folder's and page's name, every page's front
 * matter, every `_meta`. `pages` gathers the pages whose names pass.
 */
function checkFolder(source: ContentSource, folder: string, problems: ContentError[], pages: string[], unchecked: Unchecked): void {
  const entries = source.list(folder)
  const exists = (suggested: string) => entries.some((entry) => entry.path === suggested)
  for (const entry of entries) {
    const relative = entry.path
    if (entry.isDirectory) {
      if (!isSlug(entry.name)) problems.push(new BadSlugError(relative, 'folder', exists))
      else checkFolder(source, relative, problems, pages, unchecked)
    } else if (PAGE.test(entry.name)) {
      if (!isSlug(entry.name.replace(PAGE, ''))) problems.push(new BadSlugError(relative, 'page', exists))
      else {
        pages.push(relative)
        checkPage(source, relative, problems, unchecked)
      }
    } else if (isMetaFile(entry.name)) {
      problems.push(...checkMetaFile(source, relative))
    } else if (!isHiddenFile(entry)) problems.push(new NotContentFileError(relative))
  }
}

/**
 * Every problem under content/docs/ of `source`, in path order, then pages that share a route. `sections` are the declared section ids
 * (access.config.ts by default). Front matter is read only of the pages `unchecked` names (all by default).
 */
export function checkContent(source: ContentSource, sections: readonly string[] = access.sections.map((section) => section.id), unchecked: Unchecked = () => true): ContentError[] {
  const problems: ContentError[] = [...source.problems]
  const pages: string[] = []
  for (const entry of source.list(DOCS_DIR)) {
    const relative = entry.path
    if (entry.isDirectory) {
      if (sections.includes(entry.name)) checkFolder(source, relative, problems, pages, unchecked)
      else problems.push(new UndeclaredSectionError(relative, 'folder', sections, entryPageOf(source, relative)))
    } else if (INDEX_PAGE.test(entry.name)) {
      pages.push(relative)
      checkPage(source, relative, problems, unchecked, true)
    } else if (isMetaFile(entry.name)) {
      problems.push(...checkMetaFile(source, relative))
    } else if (META.test(entry.name)) problems.push(new NotContentFileError(relative))
    else if (!isHiddenFile(entry)) problems.push(new UndeclaredSectionError(relative, PAGE.test(entry.name) ? 'page' : 'file', sections))
  }
  // public/docs/ holds a folder per declared section, as content/docs/ does; each file read by the route the edge decides it by.
  const undeclared = new Set<string>()
  const byRoute = new Map<string, string>()
  const twins: ContentError[] = []
  for (const file of [...source.publicFiles].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    const route = normalisePath(file.key) ?? file.key
    const [, folder, rest] = /^\/docs\/([^/]+)(\/.*)?$/.exec(route) ?? []
    if (folder !== undefined && !(rest && sections.includes(folder))) undeclared.add(rest ? `${PUBLIC_DIR}${file.key.split('/', 3).join('/')}/` : file.file)
    const twin = byRoute.get(route)
    if (twin === undefined) byRoute.set(route, file.file)
    else twins.push(new PublicFileTwinsError(file.file, twin))
  }
  for (const entry of [...undeclared].sort()) problems.push(new UndeclaredPublicFolderError(entry, sections))
  problems.push(...twins)
  // The top of content/ (the home page and its `_meta`) is read like a section's folder, not checked for sections.
  for (const entry of source.list(CONTENT_DIR)) {
    if (entry.isDirectory) {
      if (entry.path !== DOCS_DIR) problems.push(new StrayContentFolderError(entry.path, sections))
      continue
    }
    if (PAGE.test(entry.name)) {
      if (INDEX_PAGE.test(entry.name)) {
        // Compared with the other pages of its route: index.md beside index.mdx would replace the home page.
        pages.push(entry.path)
        checkPage(source, entry.path, problems, unchecked, true)
      } else problems.push(new StrayContentPageError(entry.path, sections))
    } else if (isMetaFile(entry.name)) problems.push(...checkMetaFile(source, entry.path))
    else if (!isHiddenFile(entry)) problems.push(new NotContentFileError(entry.path))
  }
  return [...problems, ...duplicatePages(source, pages)]
}

/**
 * The build's first step, and the dev server's check, on the page store (../store/pageStore.ts):
 * every content problem (checkContent; front matter only of pages whose text the store has not
 * seen pass), then every changed page compiled with Nextra's compiler, or read from the compile
 * cache, and the store updated. Throws one BadContentError naming all of them. A page the content
 * check already names is not compiled, so one mistake in front matter is reported once.
 */
export async function checkAndCompile(source: ContentSource, store: PageStore = readStore(source.root), options: CompileOptions & { sections?: readonly string[] } = {}): Promise<CompileReport> {
  // Pages read by other parsers than the last run's (an upgrade, a new rule) are all checked again, once.
  const sameParsers = store.scan?.parsers === scanParsers()
  const unchecked = (page: ContentPage) => {
    const record = store.pages[page.route]
    return !sameParsers || record?.file !== page.file || record.digest !== page.digest
  }
  const problems = checkContent(source, options.sections, unchecked)
  const report = await compilePages(source, store, { ...options, skip: new Set(problems.map((problem) => problem.path)) })
  const all = [...problems, ...report.problems]
  if (all.length > 0) throw new BadContentError(all)
  return report
}
