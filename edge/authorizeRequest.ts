import { decideAccess } from '../lib/access/decideAccess'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { governingRoute, type AssetRoutes } from '../lib/access/governingRoute'
import { objectKeyFor } from '../lib/access/objectKey'
import { READER_VIEW_PATH, type ReaderView } from '../lib/access/readerView'
import { cookieHeaderBytes, MAX_COOKIE_HEADER_BYTES, readIdToken } from './readIdToken'
import { readerViewFor, readerViewSources, type ReaderViewSources } from './readerViewFor'
import type { VerifyIdToken } from './tokenVerifier'

/** What the edge (or the local server) does with one request. */
export type Outcome =
  | { kind: 'serve'; objectKey: string }
  | { kind: 'view'; view: ReaderView }
  | { kind: 'redirect'; location: string }
  | { kind: 'forbidden' }
  | { kind: 'badRequest' }

export interface AuthorizerDeps {
  access: CompiledAccess
  assetRoutes: AssetRoutes
  clientId: string
  verifyIdToken: VerifyIdToken
}

export interface ViewerRequest {
  /** The path as the viewer sent it, still percent-encoded. */
  path: string
  /** The query string without `?`, or ''. */
  query: string
  cookieHeaders: readonly string[]
}

const isPageKey = (objectKey: string) => objectKey.endsWith('.html')

/** Public page that explains oversized sign-in cookies and offers to clear them (pages/session-too-large.tsx). */
export const OVERSIZED_COOKIES_PAGE = '/session-too-large'

const sourcesByDeps = new WeakMap<AuthorizerDeps, ReaderViewSources>()
function viewSources(deps: AuthorizerDeps): ReaderViewSources {
  let sources = sourcesByDeps.get(deps)
  if (!sources) sourcesByDeps.set(deps, (sources = readerViewSources(deps.access, deps.assetRoutes)))
  return sources
}

/**
 * The authorizer's whole logic, free of CloudFront and of Node's HTTP types: find the file the
 * path serves, find whose rule governs it, verify the reader, decide, and say what to answer.
 */
export async function authorizeRequest(request: ViewerRequest, deps: AuthorizerDeps): Promise<Outcome> {
  if (request.path === READER_VIEW_PATH) {
    const token = readIdToken(request.cookieHeaders, deps.clientId)
    return { kind: 'view', view: readerViewFor(viewSources(deps), token === null ? null : await deps.verifyIdToken(token)) }
  }
  const objectKey = objectKeyFor(request.path)
  if (objectKey === null) return { kind: 'badRequest' }
  const route = governingRoute(objectKey, deps.assetRoutes)
  if (route === null) return { kind: 'badRequest' }

  // Public files need no token; skipping verification keeps the sign-in page fast.
  if (decideAccess(deps.access, route, null) === 'allow') return { kind: 'serve', objectKey }

  // Cookies too large to read are not "signed out": sending the reader to sign in would only add
  // more cookies and loop. A page explains it instead; other files are refused.
  if (cookieHeaderBytes(request.cookieHeaders) > MAX_COOKIE_HEADER_BYTES) {
    return isPageKey(objectKey) ? { kind: 'redirect', location: OVERSIZED_COOKIES_PAGE } : { kind: 'forbidden' }
  }
  const token = readIdToken(request.cookieHeaders, deps.clientId)
  const user = token === null ? null : await deps.verifyIdToken(token)
  const decision = decideAccess(deps.access, route, user)
  if (decision === 'allow') return { kind: 'serve', objectKey }

  const original = request.path + (request.query ? `?${request.query}` : '')
  if (decision === 'login') return { kind: 'redirect', location: `/login?next=${encodeURIComponent(original)}` }
  if (isPageKey(objectKey)) return { kind: 'redirect', location: `/unauthorized?from=${encodeURIComponent(request.path)}` }
  return { kind: 'forbidden' }
}
