import { decideAccess, refusedOutOfSight } from '../lib/access/decideAccess'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { governingRoute, type AssetRoutes } from '../lib/access/governingRoute'
import { objectKeyFor } from '../lib/access/objectKey'
import { isRouteManifestKey, READER_VIEW_PATH, type AudienceSummary, type ReaderView } from '../lib/access/readerView'
import { cookieHeaderBytes, MAX_COOKIE_HEADER_BYTES, readerOfCookies } from './readIdToken'
import { audiencesOf, readerViewFor, viewSourcesOf } from './readerViewFor'
import { rootLlmsTxt } from './rootLlmsTxt'
import type { VerifyIdToken } from './tokenVerifier'
import type { AccessUser, Decision } from '../lib/access/types'
import { accessLogRecord, isPageKey, type AccessLogSink, type RefusalReason } from './accessLog'
import { isNavigation, type FetchMetadata } from './navigation'
import { ABSENT_OBJECT_KEY, AUDIENCES_DIR, noAccessUrl, OVERSIZED_COOKIES_PAGE, ROOT_LLMS_PATH, signInUrl } from '../lib/pathFormats'

/** What the edge (or the local server) does with one request. */
export type Outcome =
  | { kind: 'serve'; objectKey: string }
  | { kind: 'view'; view: ReaderView }
  | { kind: 'llms'; text: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'unauthorized' }
  | { kind: 'forbidden' }
  | { kind: 'badRequest' }

/**
 * What each adapter answers to a refusal that is not a redirect: a status and one line of plain
 * text, never a page, because the request may be a script's, a style sheet's or a data file's.
 */
export const REFUSALS = {
  /** Not signed in (no valid token), for a request that is not a navigation. */
  unauthorized: { status: 401, text: 'Unauthorized' },
  /** Signed in but not allowed, or cookies too large to read, for a request that is not a navigation. */
  forbidden: { status: 403, text: 'Forbidden' },
  badRequest: { status: 400, text: 'Bad Request' },
} as const

export interface AuthorizerDeps {
  access: CompiledAccess
  assetRoutes: AssetRoutes
  /** The build's audiences (lib/access/planAggregates.ts): what the reader's view names. */
  audiences: readonly AudienceSummary[]
  /** The app clients whose sessions count (lib/auth/authSettings.ts sessionClientIds); one id is one client. */
  clientId: string | readonly string[]
  verifyIdToken: VerifyIdToken
}

export interface ViewerRequest {
  /** The path as the viewer sent it, still percent-encoded. */
  path: string
  /** The query string without `?`, or ''. */
  query: string
  cookieHeaders: readonly string[]
  /** Its Sec-Fetch-Mode and Sec-Fetch-Dest headers; left out when it sent none (edge/navigation.ts). */
  fetchMetadata?: FetchMetadata
}

/**
 * The authorizer's whole logic, free of CloudFront and of Node's HTTP types: find the file the
 * path serves, find whose rule governs it, verify the reader, decide, and say what to answer.
 * A refused navigation is redirected to a page that says why (sign in, no access); any other
 * refused request gets a bare 401 or 403 (edge/navigation.ts). A reader refused by a rule finer than
 * what they may open around the path gets what a path that is not there gets (refusedOutOfSight).
 *
 * With `log`, each page request and each refusal also yields one access-log record
 * (edge/accessLog.ts), handed to `log`; the adapter writes it. The reader view is never logged.
 */
export async function authorizeRequest(request: ViewerRequest, deps: AuthorizerDeps, log?: AccessLogSink): Promise<Outcome> {
  if (request.path === READER_VIEW_PATH) return { kind: 'view', view: readerViewFor(viewSourcesOf(deps), await readerOf(request, deps)) }
  if (request.path === ROOT_LLMS_PATH) {
    const user = await readerOf(request, deps)
    return { kind: 'llms', text: rootLlmsTxt(audiencesOf(viewSourcesOf(deps), user), user) }
  }
  const objectKey = objectKeyFor(request.path)
  const route = objectKey === null ? null : governingRoute(objectKey, deps.assetRoutes)
  // Without a log nobody is asked who the reader is here; with one, the line names them.
  if (objectKey === null || route === null) {
    return logged(log, deps, request, route, { kind: 'badRequest' }, 'deny', log ? await readerOf(request, deps) : null, 'unreadable path')
  }

  // Public files need no token; skipping verification keeps the sign-in page fast (a logged page names its reader).
  if (decideAccess(deps.access, route, null) === 'allow') {
    return logged(log, deps, request, route, { kind: 'serve', objectKey }, 'allow', log && isPageKey(objectKey) ? await readerOf(request, deps) : null)
  }

  const navigation = isNavigation(request.fetchMetadata, objectKey)
  // Cookies too large to read are not "signed out": sending the reader to sign in would only add
  // more cookies and loop. A page explains it instead; other requests are refused.
  if (cookieHeaderBytes(request.cookieHeaders) > MAX_COOKIE_HEADER_BYTES) {
    const outcome: LoggedOutcome = navigation ? { kind: 'redirect', location: OVERSIZED_COOKIES_PAGE } : { kind: 'forbidden' }
    return logged(log, deps, request, route, outcome, 'deny', null, 'cookies too large')
  }
  const user = await readerOf(request, deps)
  const decision = decideAccess(deps.access, route, user)
  if (decision === 'allow') return logged(log, deps, request, route, { kind: 'serve', objectKey }, decision, user)
  if (decision === 'deny' && (refusedOutOfSight(deps.access, route, user) || isAudienceFile(objectKey))) {
    // Refused by a rule finer than what the reader may open around it, or an audience's own file (whose
    // id, a hash of its rule, a reader could compute to ask whether a rule exists): answered as not there, logged as refused.
    logged(log, deps, request, route, { kind: 'forbidden' }, decision, user)
    return { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }
  }

  if (!navigation) return logged(log, deps, request, route, { kind: decision === 'login' ? 'unauthorized' : 'forbidden' }, decision, user)
  const original = request.path + (request.query ? `?${request.query}` : '')
  if (decision === 'login') return logged(log, deps, request, route, { kind: 'redirect', location: signInUrl(original) }, decision, user)
  return logged(log, deps, request, route, { kind: 'redirect', location: noAccessUrl(request.path) }, decision, user)
}

type LoggedOutcome = Exclude<Outcome, { kind: 'view' } | { kind: 'llms' }>

/** Hands the request's access-log record, if it has one, to `log`; returns the outcome. */
function logged(
  log: AccessLogSink | undefined,
  deps: AuthorizerDeps,
  request: ViewerRequest,
  route: string | null,
  outcome: LoggedOutcome,
  decision: Decision,
  user: AccessUser,
  reason?: RefusalReason
): Outcome {
  if (log) {
    const record = accessLogRecord(deps.access, { path: request.path, route, user, decision, outcome, reason })
    if (record) log(record)
  }
  return outcome
}

/**
 * A route manifest or a file of an audience's folder, in any case (the map reads keys so):
 * a made-up audience's is refused by the fallback, so a refused real one must look the same.
 */
function isAudienceFile(objectKey: string): boolean {
  const key = objectKey.toLowerCase()
  return isRouteManifestKey(key) || key.startsWith(AUDIENCES_DIR)
}

/** The verified reader of a request, or null. */
const readerOf = (request: ViewerRequest, deps: AuthorizerDeps): Promise<AccessUser> => readerOfCookies(request.cookieHeaders, deps.clientId, deps.verifyIdToken)
