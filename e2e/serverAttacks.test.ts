/** Path and cookie tricks against the real local server (the same authorizer as the edge). */
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'

const { siteUrl, cognitoUrl } = siteEnv()
let leads: string
let internal: string

beforeAll(async () => {
  leads = amplifyCookieHeader('leads1', await signInIdToken(cognitoUrl, 'leads1', PASSWORD))
  internal = amplifyCookieHeader('internal1', await signInIdToken(cognitoUrl, 'internal1', PASSWORD))
})

/**
 * Sends the path byte for byte (fetch would normalise `..` and `//` before sending), with no
 * header but the cookie and `headers`: no Fetch Metadata unless a test sends it, as curl does.
 */
async function raw(path: string, cookie?: string, headers: Record<string, string> = {}): Promise<{ status: number; location: string | null; type: string | null; cacheControl: string | null; body: string }> {
  const http = await import('node:http')
  const { hostname, port } = new URL(siteUrl)
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, method: 'GET', headers: { ...headers, ...(cookie ? { cookie } : {}) } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (body += chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location ?? null,
          type: response.headers['content-type'] ?? null,
          cacheControl: response.headers['cache-control'] ?? null,
          body,
        })
      )
    })
    request.on('error', reject)
    request.end()
  })
}

const UNAUTHORIZED = /^\/unauthorized\?from=/

test.each([
  ['/docs/leads/%2e%2e/internal/intro', 302, UNAUTHORIZED],
  ['/docs/leads/..%2finternal/intro', 302, UNAUTHORIZED],
  ['/docs/leads/../internal/intro', 302, UNAUTHORIZED],
  ['/DOCS/INTERNAL/intro', 302, UNAUTHORIZED],
  ['/docs/leadsx', 302, UNAUTHORIZED],
  ['/docs/internal/intro?next=/docs/leads/intro', 302, UNAUTHORIZED],
  ['/docs/internal/intro.html', 302, UNAUTHORIZED],
  ['/docs/internal/intro/', 302, UNAUTHORIZED],
  ['/docs/leads/%252e%252e/internal/intro', 400, null],
])('leads1 asking for %s gets %d', async (path, status, location) => {
  const response = await raw(path, leads)
  expect(response.status).toBe(status)
  if (location) expect(response.location).toMatch(location)
  expect(response.body).not.toContain('Data lake')
})

test.each(['/docs/leads/intro', '//docs//leads//intro', '/docs/leads/intro/', '/docs/leads/intro.html', '/DOCS/LEADS/INTRO', '/docs/leads/intro?x=1#y'])(
  'leads1 asking for %s gets the leads intro page',
  async (path) => {
    const response = await raw(path, leads)
    expect(response.status).toBe(200)
    expect(response.body).toContain('<html')
  }
)

test("an internal page's data (what the router fetches to move to it) is 403 for leads1 and 401 for anonymous", async () => {
  const [build] = require('node:fs').readdirSync(require('node:path').join(siteEnv().outDir, '_next/data')) as string[]
  const data = `/_next/data/${build}/docs/internal/intro.json`
  expect((await raw(data, internal)).status).toBe(200)
  expect((await raw(data, leads)).status).toBe(403)
  expect((await raw(data)).status).toBe(401)
})

describe('a refused request gets a page only when it is a navigation; any other gets a bare 401 or 403', () => {
  const fs = require('node:fs') as typeof import('node:fs')
  const nodePath = require('node:path') as typeof import('node:path')
  const { dir, outDir, decide } = siteEnv()
  const [build] = fs.readdirSync(nodePath.join(outDir, '_next/data'))
  const assetRoutes = JSON.parse(fs.readFileSync(nodePath.join(dir, '.next/asset-routes.json'), 'utf8')) as Record<string, string>
  /** A file of the build whose governing route passes `test`. */
  const governedBy = (test: (route: string) => boolean, key: RegExp) => {
    const found = Object.entries(assetRoutes).find(([file, route]) => key.test(file) && test(route))
    if (!found) throw new Error(`the audit build has no ${key} file governed by the route asked for`)
    return found[0]
  }
  const homeScript = governedBy((route) => route === '/', /^\/_next\/static\/.*\.js$/)
  // The only scripts a section's readers alone load are its route manifests.
  const internalScript = governedBy((route) => decide(route, { username: 'internal1' }) === 'allow' && decide(route, { username: 'leads1' }) === 'deny' && decide(route, null) === 'login', /^\/_next\/static\/[^/]+\/_routes\/[^/]+\.js$/)
  const internalImage = `/docs/internal/images/${fs.readdirSync(nodePath.join(outDir, 'docs/internal/images'))[0]}`
  const internalFragment = `/docs/internal/_pagefind/0/fragment/${fs.readdirSync(nodePath.join(outDir, 'docs/internal/_pagefind/0/fragment'))[0]}`

  /** What Chromium sends for each kind of request. */
  const SCRIPT = { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' }
  const MODULE = { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'script' }
  const IMAGE = { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }
  const FETCH = { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }
  const PREFETCH = { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' }
  const NAVIGATE = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

  const expectBare = (response: Awaited<ReturnType<typeof raw>>, status: number) => {
    expect([response.status, response.location, response.type, response.cacheControl]).toEqual([status, null, 'text/plain; charset=utf-8', 'no-store'])
    expect(response.body).toBe(status === 401 ? 'Unauthorized' : 'Forbidden')
  }

  test("the home page's prefetch from the sign-in page (its data file and a script): 401 for a visitor, never the sign-in page", async () => {
    expectBare(await raw(`/_next/data/${build}/index.json`, undefined, FETCH), 401)
    expectBare(await raw(homeScript, undefined, PREFETCH), 401)
    expectBare(await raw(homeScript, undefined, SCRIPT), 401)
    expect((await raw(`/_next/data/${build}/index.json`, leads, FETCH)).status).toBe(200)
  })

  test("a section's route manifest (the one script only its readers load): 401 for a visitor, and for a signed-in reader it is not for, not there (404), as a made-up audience's is: 403 would name the section", async () => {
    for (const headers of [SCRIPT, {}]) {
      expectBare(await raw(internalScript, undefined, headers), 401)
      const refused = await raw(internalScript, leads, headers)
      const madeUp = await raw(internalScript.replace(/[^/]+\.js$/, 'a0000000000.js'), leads, headers)
      expect([refused.status, refused.cacheControl, refused.body]).toEqual([404, 'no-store', madeUp.body])
      expect(madeUp.status).toBe(404)
      expect((await raw(internalScript, internal, headers)).status).toBe(200)
    }
  })

  test.each([
    ["a page's data file", `/_next/data/${build}/docs/internal/intro.json`, FETCH],
    ['an image', internalImage, IMAGE],
    ['the search script', '/docs/internal/_pagefind/pagefind.js', MODULE],
    ["a search index's shard list", '/docs/internal/_pagefind/shards.json', FETCH],
    ['a search fragment', internalFragment, FETCH],
    ['a Markdown file', '/docs/internal/intro.md', FETCH],
    ['a page, fetched', '/docs/internal/intro', FETCH],
    ['a data file, with no Fetch Metadata (curl)', `/_next/data/${build}/docs/internal/intro.json`, {}],
  ])('%s: 401 when not signed in, 403 when signed in but not allowed, 200 for its reader', async (_what, file, headers) => {
    expectBare(await raw(file, undefined, headers), 401)
    expectBare(await raw(file, leads, headers), 403)
    expect((await raw(file, internal, headers)).status).toBe(200)
  })

  test.each([
    ['a page', '/docs/internal/intro', NAVIGATE],
    ['a page, with no Fetch Metadata (an older browser)', '/docs/internal/intro', {}],
    ['a Markdown file a reader follows a link to', '/docs/internal/intro.md', NAVIGATE],
  ])('a navigation to %s is redirected: to sign in, or to no access', async (_what, file, headers) => {
    const visitor = await raw(file, undefined, headers)
    expect([visitor.status, visitor.location, visitor.cacheControl]).toEqual([302, `/login?next=${encodeURIComponent(file)}`, 'no-store'])
    const refused = await raw(file, leads, headers)
    expect([refused.status, refused.location, refused.cacheControl]).toEqual([302, `/unauthorized?from=${encodeURIComponent(file)}`, 'no-store'])
  })
})

// CloudFront gives every behavior the site's headers (infra/lib/site-stack.ts), the AI tools' sign-in and server included.
test.each([
  ['a page', '/login', 'GET'],
  ["the AI tools' sign-in metadata", '/.well-known/oauth-authorization-server/oauth', 'GET'],
  ["the AI tools' sign-in refusing a request", '/oauth/auth?client_id=nobody', 'GET'],
  ["the AI tools' server", '/mcp', 'POST'],
])('%s carries the security headers', async (_what, path, method) => {
  const response = await fetch(siteUrl + path, { method, redirect: 'manual' })
  expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(cognitoUrl).origin}`)
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('x-frame-options')).toBe('DENY')
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
})

test('a forged cookie name does not make leads1 an admin', async () => {
  const token = leads.split('idToken=')[1]
  const forged = amplifyCookieHeader('admin', token)
  expect((await raw('/docs/internal/intro', forged)).status).toBe(302)
  expect((await raw('/docs/leads/intro', forged)).status).toBe(200)
})

/** A GET with the given headers, returning the raw (still encoded) body. */
async function rawBytes(path: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; body: Buffer }> {
  const http = await import('node:http')
  const { hostname, port } = new URL(siteUrl)
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }))
    })
    request.on('error', reject)
    request.end()
  })
}

test('a page goes gzipped, as CloudFront sends it, only to a client that accepts gzip; its content is prerendered', async () => {
  const { gunzipSync } = await import('node:zlib')
  const gzipped = await rawBytes('/docs/leads/intro', { cookie: leads, 'accept-encoding': 'gzip, br' })
  const plain = await rawBytes('/docs/leads/intro', { cookie: leads })
  expect([gzipped.status, gzipped.encoding, plain.status, plain.encoding]).toEqual([200, 'gzip', 200, undefined])
  expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true)
  expect(gzipped.body.length).toBeLessThan(plain.body.length / 2)
  // The reader's page paints from the HTML: the heading and sidebar are there, no "Loading..." screen.
  const html = plain.body.toString('utf8')
  expect(html).toMatch(/<h1[^>]*>Leads API introduction/)
  expect(html).toContain('href="/docs/leads/environments"')
  expect(html).not.toContain('Loading...')
})

test('a refused request is not compressed and carries no content', async () => {
  const refused = await rawBytes('/docs/internal/intro', { cookie: leads, 'accept-encoding': 'gzip' })
  expect(refused.status).toBe(302)
  expect(refused.encoding).toBeUndefined()
  expect(refused.body.toString('utf8')).not.toContain('Internal engineering documentation')
})

describe('oversized cookies: a page that says so, never a bare 431 and never a sign-in loop', () => {
  const padding = (bytes: number) => `; padding=${'x'.repeat(bytes)}`

  test('cookies too large for the authorizer to read: a docs page sends the reader to the page that explains it, which loads', async () => {
    const response = await raw('/docs/leads/intro', leads + padding(17 * 1024))
    expect(response.status).toBe(302)
    expect(response.location).toBe('/session-too-large')
    const page = await raw('/session-too-large', leads + padding(17 * 1024))
    expect(page.status).toBe(200)
    expect(page.body).toContain('too much sign-in data')
  })

  test("past CloudFront's own limit (20,480 bytes of headers) the server still answers with a page that clears the sign-in cookies", async () => {
    const response = await raw('/docs/leads/intro', leads + padding(21 * 1024))
    expect(response.status).toBe(431)
    expect(response.body).toContain('too much sign-in data')
    expect(response.body).toContain('CognitoIdentityServiceProvider.')
  })
})

/** A request to `url` with exactly `headers` (Host included: fetch would send the URL's own), its status, headers and body. */
async function sent(url: string, method: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const http = await import('node:http')
  const { hostname, port, pathname } = new URL(url)
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: pathname, method, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
    })
    request.on('error', reject)
    request.end(body)
  })
}

describe("this machine's servers answer its own pages and tools only: not a host name pointed at it (DNS rebinding), nor another site's page", () => {
  const own = new URL(siteUrl).host

  test('the site refuses a signed-in reader reached through another host name, or a page of another site, before deciding anything', async () => {
    for (const host of ['evil.example', `evil.example:${new URL(siteUrl).port}`, '127.0.0.1.evil.example']) {
      const refused = await raw('/docs/leads/intro', leads, { host })
      expect([host, refused.status, refused.cacheControl, refused.body]).toEqual([host, 403, 'no-store', `This server answers pages and tools of this machine only: its Host (${host}) is not this machine.\n`])
    }
    expect((await raw('/docs/leads/intro', leads, { host: own, origin: 'https://evil.example' })).status).toBe(403)
    expect((await raw('/mcp', undefined, { host: own, origin: 'https://evil.example' })).status).toBe(403)
    // Its own names pass, as before.
    for (const host of [own, own.replace('127.0.0.1', 'localhost')]) expect([host, (await raw('/docs/leads/intro', leads, { host })).status]).toEqual([host, 200])
  })

  test("the local Cognito refuses another site's page (its users, groups and sign-in), and a host name pointed at it", async () => {
    const listUsers = (headers: Record<string, string>) =>
      sent(cognitoUrl + '/', 'POST', { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.ListUsers', ...headers }, JSON.stringify({ UserPoolId: 'eu-west-2_LocalDocs' }))
    const cognitoHost = new URL(cognitoUrl).host
    for (const headers of [{ host: cognitoHost, origin: 'https://evil.example' }, { host: 'evil.example' }] as Record<string, string>[]) {
      const refused = await listUsers(headers)
      expect([refused.status, refused.headers['access-control-allow-origin'], refused.body.includes('leads1')]).toEqual([403, undefined, false])
    }
    const preflight = await sent(cognitoUrl + '/', 'OPTIONS', { host: cognitoHost, origin: 'https://evil.example', 'access-control-request-method': 'POST' })
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([403, undefined])
    // The site's sign-in page, on this machine, still signs in.
    const allowed = await sent(cognitoUrl + '/', 'OPTIONS', { host: cognitoHost, origin: siteUrl, 'access-control-request-method': 'POST' })
    expect([allowed.status, allowed.headers['access-control-allow-origin']]).toEqual([204, siteUrl])
  })
})

test('TRACE, which a Web Request cannot carry, to /mcp gets 405, as on every other path, with nothing of the server in it', async () => {
  const answer = await sent(siteUrl + '/mcp', 'TRACE', { host: new URL(siteUrl).host })
  expect([answer.status, answer.headers['cache-control'], /unsupported|error/i.test(answer.body)]).toEqual([405, 'no-store', false])
})
