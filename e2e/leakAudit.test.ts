/**
 * The leak audit (e2e/leakAuditSuite.ts) of the audit build served from out/ by the shared server,
 * and the audit's own searches. e2e/deployedBucket.test.ts runs the same audit against the bucket
 * that build is deployed to.
 */
import { READER_VIEW_PATH } from '../lib/access/readerView'
import { listFiles } from '../pipeline/files'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { sectionRoutePattern, usernamePattern } from '../scripts/audit/scan'
import { describeLeakAudit } from './leakAuditSuite'
import { PASSWORD, siteEnv } from './siteEnv'

const env = siteEnv()

describeLeakAudit('the built site (out/)', () => ({ siteUrl: env.siteUrl, keys: async () => listFiles(env.outDir) }))

describe("the leak audit's searches", () => {
  test('the route search finds a section route in every spelling a file may hold it', () => {
    const internal = sectionRoutePattern('internal')
    for (const spelling of ['"/docs/internal/intro"', '"\\u002Fdocs\\u002Finternal\\u002F_meta"', 'next=%2Fdocs%2Finternal%2Fintro', 'href="/docs/internal"']) {
      expect([spelling, internal.test(spelling)]).toEqual([spelling, true])
    }
    expect(internal.test('/docs/internals')).toBe(false)
  })

  test('the username search finds a list member where it may be read: the reader itself, in its view', async () => {
    const cookie = amplifyCookieHeader('leads1', await signInIdToken(env.cognitoUrl, 'leads1', PASSWORD))
    const view = await (await fetch(env.siteUrl + READER_VIEW_PATH, { headers: { cookie } })).text()
    expect(usernamePattern('leads1').test(view)).toBe(true)
    expect(usernamePattern('leads1').test('leads10')).toBe(false)
  })
})
