/** Requests per second of the local server for a docs page as a signed-in reader (autocannon, 127.0.0.1). */
import autocannon from 'autocannon'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { SEEDED_PASSWORD } from '../scripts/cognito/seed'
import { startLocalStack } from '../scripts/server/startStack'
import type { Figure } from './table'

export async function serverFigures(seconds = 5): Promise<Figure[]> {
  const stack = await startLocalStack({ sitePort: 0 })
  try {
    const cookie = amplifyCookieHeader('leads1', await signInIdToken(stack.cognitoUrl, 'leads1', SEEDED_PASSWORD))
    const result = await autocannon({ url: `${stack.siteUrl}/docs/leads/intro`, headers: { cookie }, connections: 10, duration: seconds })
    if (result.non2xx > 0) throw new Error(`${result.non2xx} responses were not 200`)
    const method = `autocannon, 10 connections, ${seconds} s, leads1's cookie, /docs/leads/intro`
    return [
      { group: 'local server', name: 'docs page requests per second', value: Math.round(result.requests.average), unit: '/s', method },
      { group: 'local server', name: 'docs page latency p99', value: result.latency.p99, unit: 'ms', method },
    ]
  } finally {
    await stack.stop()
  }
}
