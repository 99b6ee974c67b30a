/**
 * The shipped AI tools' server bundle (mcp/dist/index.js of the audit build), as its Lambda function
 * runs it behind CloudFront, with real local-Cognito tokens and its own baked verifier: function
 * URL events carrying the reader's token where the distribution's viewer-request function puts it,
 * and search through Pagefind over the audit build's out/. The bundle runs in a fresh Node process,
 * as the Lambda runtime loads it (jest's sandbox cannot do the native import that search needs).
 */
import path from 'node:path'
import { runBundleFresh, toolCallEvent, toolResult } from '../bench/mcpColdStart'
import { MARKED_PAGES } from '../scripts/audit/markers'
import { signInIdToken } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'

const env = siteEnv()
const bundle = path.join(env.dir, 'mcp/dist/index.js')
const routeOf = (route: string) => route.split('#', 1)[0]
type Results = { results: Array<{ route: string; url: string }> }

test("search_docs through the bundle finds a section's marked page for its reader, with full URLs, and nothing of it for another reader", async () => {
  const internal1 = await signInIdToken(env.cognitoUrl, 'internal1', PASSWORD)
  const leads1 = await signInIdToken(env.cognitoUrl, 'leads1', PASSWORD)
  const { answers, log } = await runBundleFresh({
    bundle,
    outDir: env.outDir,
    events: [
      toolCallEvent('search_docs', { query: env.markers.body.internal }, internal1),
      toolCallEvent('search_docs', { query: env.markers.body.internal }, leads1),
      toolCallEvent('search_docs', { query: env.markers.body.leads }, leads1),
      // A token that is not a valid sign-in (JWT-shaped, so no sign-in store is asked: this run has none).
      toolCallEvent('whoami', {}, 'not.a.token'),
    ],
  })
  const [found, refused, own] = answers.slice(0, 3).map((answer) => toolResult(answer.result).structuredContent as Results)
  const internalRoute = env.routeOfFile(MARKED_PAGES.internal)
  expect(found.results.map((result) => routeOf(result.route))).toContain(internalRoute)
  expect(found.results[0].url).toMatch(/^https:\/\/docs\.example\.com\/docs\/internal\//)
  expect(refused.results).toEqual([])
  expect(own.results.map((result) => routeOf(result.route))).toContain(env.routeOfFile(MARKED_PAGES.leads))
  for (const { route } of own.results) expect([route, env.decide(routeOf(route), { username: 'leads1', groups: [] })]).toEqual([route, 'allow'])
  expect(answers[3].result.statusCode).toBe(401)

  // The access log names each reader and tool, never a token or the query.
  expect(log.map((record) => [record.user, record.outcome, record.tool ?? null, record.routes?.includes(internalRoute) ?? false])).toEqual([
    ['internal1', 'tool', 'search_docs', true],
    ['leads1', 'tool', 'search_docs', false],
    ['leads1', 'tool', 'search_docs', false],
    ['anonymous', 'unauthorized', null, false],
  ])
  const lines = JSON.stringify(log)
  for (const token of [internal1, leads1]) expect(lines).not.toContain(token)
  expect(lines).not.toContain(env.markers.body.internal)
})
