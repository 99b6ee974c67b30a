import type { CloudFrontRequestEvent, CloudFrontRequestResult } from './cloudfrontTypes'
import { authorizeRequest, REFUSALS, type AuthorizerDeps, type Outcome } from './authorizeRequest'
import { CACHE_CONTROL } from './cacheHeaders'
import { logToConsole, type AccessLogSink } from './accessLog'

type Headers = Record<string, Array<{ key?: string; value: string }>>

const toCloudFrontHeaders = (headers: Record<string, string>): Headers =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [{ key: name, value }]]))

/**
 * CloudFront viewer-request adapter: event in, request (pass through) or generated response out.
 * It writes the access log (a line per page request and per refusal, edge/accessLog.ts) with
 * console.log, which Lambda@Edge sends to CloudWatch Logs; `log` replaces that writer (tests).
 */
export function createViewerRequestHandler(deps: AuthorizerDeps, responseHeaders: Record<string, string>, log: AccessLogSink = logToConsole) {
  const respond = (status: string, description: string, extra: Record<string, string> = {}, body?: string): CloudFrontRequestResult => ({
    status,
    statusDescription: description,
    headers: toCloudFrontHeaders({ ...responseHeaders, 'cache-control': CACHE_CONTROL.never, ...extra }),
    ...(body !== undefined ? { body } : {}),
  })

  const toResult = (outcome: Outcome, request: CloudFrontRequestEvent['Records'][0]['cf']['request']): CloudFrontRequestResult => {
    switch (outcome.kind) {
      case 'serve':
        // The origin is asked for exactly the file that was decided on, its path encoded as CloudFront
        // gave it: S3 decodes the path (and would read a bare `+` as a space).
        return { ...request, uri: outcome.objectKey.split('/').map(encodeURIComponent).join('/') }
      case 'view':
        return respond('200', 'OK', { 'content-type': 'application/json; charset=utf-8', 'cache-control': CACHE_CONTROL.readerView }, JSON.stringify(outcome.view))
      case 'llms':
        return respond('200', 'OK', { 'content-type': 'text/plain; charset=utf-8', 'cache-control': CACHE_CONTROL.readerView }, outcome.text)
      case 'redirect':
        return respond('302', 'Found', { location: outcome.location })
      case 'unauthorized':
      case 'forbidden':
      case 'badRequest': {
        const { status, text } = REFUSALS[outcome.kind]
        return respond(String(status), text, { 'content-type': 'text/plain; charset=utf-8' }, text)
      }
    }
  }

  /** The value of a request header CloudFront passed on (it gives their names in lower case), or null. */
  const headerOf = (request: CloudFrontRequestEvent['Records'][0]['cf']['request'], name: string) => request.headers[name]?.[0]?.value ?? null

  return async function handler(event: CloudFrontRequestEvent): Promise<CloudFrontRequestResult> {
    const request = event.Records[0].cf.request
    const cookieHeaders = (request.headers.cookie ?? []).map((header) => header.value)
    const fetchMetadata = { mode: headerOf(request, 'sec-fetch-mode'), dest: headerOf(request, 'sec-fetch-dest') }
    const outcome = await authorizeRequest({ path: request.uri, query: request.querystring, cookieHeaders, fetchMetadata }, deps, log)
    return toResult(outcome, request)
  }
}
