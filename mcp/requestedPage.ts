/**
 * What a reader's AI tool may pass as a page: a route (`/docs/leads/intro`), the same with a
 * heading (`…#how-a-quote-flows`) or as its Markdown (`….md`), or a full URL of this site. Anything
 * else is refused with a sentence that names the problem; nothing here says whether a page exists.
 */
import { normalisePath } from '../lib/access/normalisePath'
import { pathOfMarkdownKey } from '../lib/pathFormats'

/** The longest page path accepted: far above any route of the site, far below a body limit. */
export const MAX_PAGE_PATH = 2048

export class PagePathError extends Error {
  constructor(input: string, problem: string) {
    super(`"${input.length > 80 ? `${input.slice(0, 80)}…` : input}" ${problem}; give a route of this site, such as /docs/<section>/<page>`)
    this.name = 'PagePathError'
  }
}

/** The canonical route `input` names on the site at `siteUrl`, or a PagePathError. */
export function routeOfPagePath(input: string, siteUrl: string): string {
  const given = input.trim()
  if (given.length === 0) throw new PagePathError(input, 'is empty')
  if (given.length > MAX_PAGE_PATH) throw new PagePathError(input, `is longer than ${MAX_PAGE_PATH} characters`)
  let pathname = given
  if (/^[a-z][a-z0-9+.-]*:/i.test(given) || given.startsWith('//')) {
    let url: URL
    try {
      url = new URL(given, siteUrl)
    } catch {
      throw new PagePathError(input, 'is not a URL')
    }
    if (url.origin !== new URL(siteUrl).origin) throw new PagePathError(input, `is not on this site (${new URL(siteUrl).origin})`)
    pathname = url.pathname
  }
  pathname = pathname.split(/[?#]/, 1)[0]
  if (!pathname.startsWith('/')) pathname = `/${pathname}`
  if (pathname.includes('\\')) throw new PagePathError(input, 'contains a backslash')
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    throw new PagePathError(input, 'is not valid percent-encoding')
  }
  if (decoded.includes('%')) throw new PagePathError(input, 'is percent-encoded twice')
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) throw new PagePathError(input, 'contains a "." or ".." segment')
  const route = normalisePath(pathOfMarkdownKey(pathname))
  if (route === null) throw new PagePathError(input, 'is not a page path')
  return route
}
