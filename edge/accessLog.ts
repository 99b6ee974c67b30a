/**
 * The access log: one JSON line for each page request and each refusal. The authorizer
 * (edge/authorizeRequest.ts) builds the record here and hands it to its adapter, which writes it:
 * the edge with console.log (CloudWatch Logs), the local server to stdout or a file
 * (scripts/server/accessLogFile.ts). Both write `accessLogLine`, so their lines are identical.
 *
 * A record never holds a token, a cookie or the query string (which can carry `next=` and
 * anything a link put there): only the path, the verified username, the decision and the rule.
 */
import type { CompiledAccess } from '../lib/access/compileAccess'
import { describeRule, governingRuleOf } from '../lib/access/decideAccess'
import type { AccessUser, Decision } from '../lib/access/types'

/**
 * The outcome kinds a line can report (the reader view, /_reader.json, is never logged). The
 * authorizer writes `unauthorized` (401) for a request without a valid sign-in that is not a
 * navigation (a navigation is a `redirect` to /login), and `forbidden` (403) for one refused to a
 * signed-in reader. The AI tools' server (mcp/) writes `tool` for each tool call and `unauthorized`
 * for a request without a valid token (`error` when the token could not be checked: the store failed), and its
 * authorization server `oauth` for each grant, refresh, refusal and revocation, in the same shape.
 * A one-time token used twice is `refresh-reuse` or `code-reuse`, with the reader and the client:
 * a sign of a stolen token, where `revocation` is a client's or reader's routine disconnect.
 */
export type LoggedOutcome = 'serve' | 'redirect' | 'forbidden' | 'badRequest' | 'tool' | 'unauthorized' | 'oauth' | 'error'

/** Why a request was refused before the rules were asked. */
export type RefusalReason = 'unreadable path' | 'cookies too large' | 'no valid token' | 'bad input'

export interface AccessLogRecord {
  /** When the authorizer decided, ISO 8601 in UTC. */
  time: string
  /** The username of the verified ID token, or `anonymous`. */
  user: string
  /** The path as the viewer sent it, still percent-encoded, without the query string. */
  path: string
  /** The route whose rule governs the file (a build file's page), or null when the path cannot be read. */
  route: string | null
  decision: Decision
  outcome: LoggedOutcome
  /** Where a redirect sends the reader, without its query: `/login`, `/unauthorized`, `/session-too-large`. */
  redirect?: string
  /** The rule that decided, `describeRule(governingRuleOf(access, route))`; null when the path cannot be read. */
  rule: string | null
  /** Present when the request was refused before the rules were asked. */
  reason?: RefusalReason
  /** The AI tool's call: the tool's name (never its arguments: a query can hold anything). */
  tool?: string
  /** The routes a tool call answered with; a page refused by the rules is under `refused`. */
  routes?: string[]
  refused?: string[]
  /** An AI tool's sign-in: what happened, the client ID, the host its codes go to, and why (never a code or a token). */
  event?: 'grant' | 'refresh' | 'refusal' | 'revocation' | 'refresh-reuse' | 'code-reuse'
  client?: string
  redirectHost?: string
  detail?: string
}

/** Writes one record; the adapter's part. */
export type AccessLogSink = (record: AccessLogRecord) => void

/** What the authorizer knows once it has answered a request. */
export interface AccessLogFacts {
  path: string
  route: string | null
  user: AccessUser
  decision: Decision
  outcome: { kind: 'serve'; objectKey: string } | { kind: 'redirect'; location: string } | { kind: 'unauthorized' } | { kind: 'forbidden' } | { kind: 'badRequest' }
  reason?: RefusalReason
}

/** Pages are the objects whose key ends in .html; allowed build files, images and search files are not logged. */
export const isPageKey = (objectKey: string) => objectKey.endsWith('.html')

/** Whether a request is logged: every page request and every refusal, no allowed asset. */
export function isLogged(outcome: AccessLogFacts['outcome']): boolean {
  return outcome.kind !== 'serve' || isPageKey(outcome.objectKey)
}

/** The one builder of a log record, or null when the request is not logged. */
export function accessLogRecord(access: CompiledAccess, facts: AccessLogFacts, time: Date = new Date()): AccessLogRecord | null {
  const { outcome } = facts
  if (!isLogged(outcome)) return null
  return {
    time: time.toISOString(),
    user: facts.user?.username ?? 'anonymous',
    path: facts.path.split('?', 1)[0],
    route: facts.route,
    decision: facts.decision,
    outcome: outcome.kind,
    ...(outcome.kind === 'redirect' ? { redirect: outcome.location.split('?', 1)[0] } : {}),
    rule: facts.route === null ? null : describeRule(governingRuleOf(access, facts.route)),
    ...(facts.reason ? { reason: facts.reason } : {}),
  }
}

/** The line both adapters write: the record as one line of JSON. */
export const accessLogLine = (record: AccessLogRecord): string => JSON.stringify(record)

/** The edge's writer: Lambda@Edge sends console.log to CloudWatch Logs. */
export const logToConsole: AccessLogSink = (record) => console.log(accessLogLine(record))
