/**
 * Fails the build on a broken internal link, a missing image, or a link into a section that the
 * page's own readers may not open (rendering it would also make Next prefetch a forbidden page).
 * The site build's step after the content step (pipeline/steps/buildSteps.ts), which has checked
 * where pages are and what they are called (./checkContent.ts).
 */
import { access, governingRuleOf, readersOfMayOpen, requirementFor, type CompiledAccess } from '../../lib/access'
import { normalisePath } from '../../lib/access/normalisePath'
import { folderWordsPath } from '../../lib/access/sectionPaths'
import { urlScheme } from '../../lib/render/pageRules'
import { anchorKey } from '../compile/documentLinks'
import type { ContentPage, ContentSource } from '../content/contentSource'
import type { FoundLink } from '../content/pageLinks'
import { climbsOut, sitePathOf } from '../compile/sitePaths.mjs'
import { NamedError } from '../content/contentError'

export interface LinkProblem {
  file: string
  line: number
  target: string
  /** A missing image or file, a link to no page, or a link to a page its readers may not open. */
  kind: 'missing' | 'broken' | 'forbidden'
  problem: string
}

/** A content or public file whose path no request can reach as itself. */
export class UnservablePathError extends NamedError {
  constructor(readonly file: string) {
    super(`${file}: this file's path cannot be served (its name reads as another path, or holds a %, ? or #); rename it`)
  }
}

/** A host name a browser takes to be this machine, as `new URL` spells it: *.localhost too, and an IPv4-mapped 127.x. */
const THIS_MACHINE = /^(?:127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]|0\.0\.0\.0|localhost|.+\.localhost)\.?$/i

/**
 * An http(s) URL of a docs page on this machine, by its host as a browser reads it (`127.1`,
 * `0x7f000001`, `localhost.`): a preview's address. Other local addresses (a service's
 * `http://localhost:8080/health`) are text.
 */
function isPreviewDocsUrl(target: string): boolean {
  if (!/^https?:/i.test(target)) return false
  try {
    const url = new URL(target)
    return THIS_MACHINE.test(url.hostname) && /^\/docs(?:\/|$)/i.test(url.pathname)
  } catch {
    return false
  }
}

/**
 * A folder's `_meta` file with the route of its folder. Its `href` links ship in the JavaScript of
 * every page of the folder's section, so they obey the same rule as links in page text.
 */
function metaSources(source: ContentSource): { file: string; route: string; readersOf: string; links: readonly FoundLink[] }[] {
  // A relative link is resolved from the folder's route, as before; its readers are those its words
  // reach, of what the folder holds, not of its index page.
  return source.metas.map((meta) => {
    const route = normalisePath(meta.folderRoute) as string
    return { file: meta.file, route, readersOf: folderWordsPath(route), links: meta.links }
  })
}

/** Where a page's own files belong: under the folder its rule governs (a prefix rule's path, or its section's). */
function filesHint(rules: CompiledAccess, route: string): string {
  const governing = governingRuleOf(rules, route)
  if (governing.kind === 'rule' && governing.rule.match === 'prefix') return `move it under public${governing.rule.path}/images/`
  return 'move it under a folder whose rule admits every reader of the page'
}

/** The links the compiled documents hold, and the ids a `#fragment` can name, by route (the page store's records, ../compile/documentLinks.ts). */
export type CompiledLinks = Readonly<Record<string, { readonly links?: readonly FoundLink[]; readonly anchors?: string }>>

/**
 * Why `fragment` (%-decoded) names nothing on the page at `route`, or null when it names one of its
 * ids (as written, or without the prefix the compile gives every id, which the page maps) or when
 * the page's ids are not known (a record made before they were kept, a page that is code).
 */
function fragmentProblem(compiled: CompiledLinks | undefined, route: string, fragment: string): string | null {
  const anchors = compiled?.[route]?.anchors
  // A text fragment (`#:~:text=…`, after an id or alone) is the browser's, not the page's.
  const id = fragment.split(':~:', 1)[0]
  if (anchors === undefined || id === '' || id.toLowerCase() === 'top') return null
  if (anchors.split(' ').includes(anchorKey(id))) return null
  return `broken link: ${route} has no heading or element with the id "${id}" (a heading renamed?)`
}

/**
 * Every problem of the pages' and `_meta` files' links: those the scan read in the text, and, given
 * `compiled`, those each page's compiled document holds (the ones the text spells in a way the
 * scan does not read: a reference link, a link over several lines, an attribute written as code).
 */
export function checkLinks(source: ContentSource, rules: CompiledAccess = access, compiled?: CompiledLinks): LinkProblem[] {
  // Pages that are code, not MDX (sign-in, status pages), are the public ones.
  const routes = new Set([...source.pages.map((page) => page.route), ...rules.publicPaths])
  const problems: LinkProblem[] = []
  const sources = [
    ...source.pages.map((page) => ({ file: page.file, route: page.route, readersOf: page.route, links: page.links, compiledLinks: compiled?.[page.route]?.links ?? [], isPage: true })),
    ...metaSources(source).map((meta) => ({ ...meta, compiledLinks: [], isPage: false })),
  ]
  for (const page of sources) {
    // Each link the scan read is judged at its line; one the compile found too, only there.
    const judged = new Set<string>()
    const read = new Set<string>()
    const scanned = page.links.length
    for (const [at, [line, target]] of [...page.links, ...page.compiledLinks].entries()) {
      // The compile's copy of a link the scan read (perhaps %-encoded) is judged at the scan's line only.
      const spelt = safelyDecoded(target)
      if (at >= scanned && (read.has(target) || read.has(spelt))) continue
      read.add(target).add(spelt)
      const report = (kind: LinkProblem['kind'], problem: string) => problems.push({ file: page.file, line, target, kind, problem })
      // A reader's own machine is no page of the site: a link copied from the preview (npm run dev)
      // would name its route to every reader, whether or not they may open it, and go nowhere.
      if (isPreviewDocsUrl(target)) {
        report('broken', "points at the reader's own machine (copied from a preview?): link a page as a site path (/docs/…)")
        continue
      }
      // A heading of this page: one a rename left behind is a broken link.
      if (target.startsWith('#')) {
        const problem = page.isPage ? fragmentProblem(compiled, page.route, safelyDecoded(target.slice(1))) : null
        if (problem && !judged.has(target)) report('broken', problem)
        judged.add(target)
        continue
      }
      // Another site's: `https:` only with its `//` (a browser reads `https:/docs/x` on this site as `/docs/x`).
      if (/^https?:\/\//i.test(target)) {
        // Unless it is this site's own address (copied from the address bar): the build does not know
        // its domain, so an address whose path is a page of this site is judged as that page.
        const route = addressedRoute(target)
        if (route !== null && routes.has(route) && !readersOfMayOpen(rules, page.readersOf, route)) {
          report('forbidden', `an address whose path is this site's page ${route}, which needs "${requirementFor(rules, route)}": this page's readers (who need "${requirementFor(rules, page.readersOf)}") may not open it, and the link names it to them; link this site's pages as site paths (/docs/…)`)
        }
        continue
      }
      if (/^(mailto:|tel:)/i.test(target)) continue
      // As the page check says of a page's (pipeline/compile/pageSanitizer.mjs); a _meta's went out as a broken site path.
      if (urlScheme(target) === '//') {
        report('broken', 'leaves the site without a scheme: write the full https:// address')
        continue
      }
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]
      if (scheme) {
        report('broken', `a \`${scheme}:\` URL: links are site paths (/docs/…), https://, http://, mailto: or tel: addresses`)
        continue
      }
      const written = target.split(/[?#]/, 1)[0]
      // `internal/secret-plan/../..` would ship the names it climbs out of to every reader of the page.
      if (climbsOut(written)) {
        report('broken', 'climbs back out of a folder it names (…/name/..): the page would ship that name; write the path without it')
        continue
      }
      const pathOnly = sitePathOf(page.route, written)
      let decoded: string
      try {
        decoded = decodeURIComponent(pathOnly)
      } catch {
        report('broken', 'a % that starts no escape: write it as %25')
        continue
      }
      const isFile = /\.[a-z0-9]+$/i.test(pathOnly) && !/\.mdx?$/i.test(pathOnly)
      const key = isFile ? decoded : decoded.replace(/\.mdx?$/i, '')
      if (at >= scanned && judged.has(key)) continue
      judged.add(key)
      if (isFile) {
        if (!source.publicFile(decoded)) report('missing', `missing file: public${pathOnly} does not exist`)
        // A file follows its own path's rule: one that the page's readers may not fetch would be broken for them.
        else if (!readersOfMayOpen(rules, page.readersOf, pathOnly)) {
          report('forbidden', `a page that needs "${requirementFor(rules, page.readersOf)}" uses a file that needs "${requirementFor(rules, normalisePath(pathOnly) ?? pathOnly)}"; its readers may not fetch it (${filesHint(rules, page.route)})`)
        }
        continue
      }
      const route = normalisePath(pathOnly.replace(/\.mdx?$/i, ''))
      if (route === null || !routes.has(route)) {
        report('broken', 'broken link: no page has this route')
        continue
      }
      const hash = target.indexOf('#')
      const fragment = hash < 0 ? null : fragmentProblem(compiled, route, safelyDecoded(target.slice(hash + 1)))
      if (fragment) report('broken', fragment)
      if (!readersOfMayOpen(rules, page.readersOf, route)) {
        const [from, to] = [requirementFor(rules, page.readersOf), requirementFor(rules, route)]
        report('forbidden', `links from a page that needs "${from}" to one that needs "${to}"; its readers may not open it`)
      }
    }
  }
  return problems
}

/** The route an http(s) address's path would be on this site, or null. */
function addressedRoute(address: string): string | null {
  try {
    return normalisePath(new URL(address).pathname.replace(/\.mdx?$/i, ''))
  } catch {
    return null
  }
}

/** `text` %-decoded, or as it is where a % starts no escape. */
function safelyDecoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A link problem's line, as the build prints it. */
export const describeLinkProblem = ({ file, line, target, problem }: LinkProblem) => `${file}:${line}: ${target}: ${problem}`

export class BrokenLinksError extends NamedError {
  constructor(readonly problems: LinkProblem[]) {
    super([...problems.map(describeLinkProblem), `checkLinks: ${problems.length} problem(s); fix them before building`].join('\n'))
  }
}

/**
 * The build's step after the content step (./checkContent.ts checkAndCompile, which has already
 * refused a page outside a declared section's folder or under a bad name): every page, when every
 * internal link and image resolves (BrokenLinksError otherwise).
 */
export function assertLinks(source: ContentSource, rules: CompiledAccess = access, compiled?: CompiledLinks): readonly ContentPage[] {
  if (source.unservable.length > 0) throw new UnservablePathError(source.unservable[0])
  const problems = checkLinks(source, rules, compiled)
  if (problems.length > 0) throw new BrokenLinksError(problems)
  return source.pages
}
