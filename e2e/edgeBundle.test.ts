/** The shipped Lambda@Edge bundle (edge/dist/index.js of the audit build) with real local-Cognito tokens. */
import path from 'node:path'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'

const { dir, cognitoUrl } = siteEnv()
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { handler } = require(path.join(dir, 'edge/dist/index.js'))

// The bundle writes its access log with console.log (to CloudWatch Logs at the edge): kept here to check, not printed.
let logged: string[] = []
beforeEach(() => {
  logged = []
  jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')))
})
afterEach(() => jest.restoreAllMocks())

const event = (uri: string, cookie?: string) => ({
  Records: [{ cf: { config: { eventType: 'viewer-request' }, request: { clientIp: '127.0.0.1', method: 'GET', uri, querystring: '', headers: cookie ? { cookie: [{ key: 'Cookie', value: cookie }] } : {} } } }],
})

test('the bundle serves internal1 the internal docs and sends leads1 to /unauthorized', async () => {
  const internal = amplifyCookieHeader('internal1', await signInIdToken(cognitoUrl, 'internal1', PASSWORD))
  const leads = amplifyCookieHeader('leads1', await signInIdToken(cognitoUrl, 'leads1', PASSWORD))
  expect((await handler(event('/docs/internal/intro', internal))).uri).toBe('/docs/internal/intro.html')
  const denied = await handler(event('/docs/internal/intro', leads))
  expect(denied.status).toBe('302')
  expect(denied.headers.location[0].value).toBe('/unauthorized?from=%2Fdocs%2Finternal%2Fintro')
  expect((await handler(event('/docs/internal/intro'))).status).toBe('302')
  // One access-log line per page request, naming the verified reader and the rule; never the token.
  expect(logged.map((line) => JSON.parse(line))).toEqual([
    expect.objectContaining({ user: 'internal1', path: '/docs/internal/intro', decision: 'allow', outcome: 'serve', rule: 'prefix /docs/internal -> internalUsers' }),
    expect.objectContaining({ user: 'leads1', path: '/docs/internal/intro', decision: 'deny', outcome: 'redirect', redirect: '/unauthorized' }),
    expect.objectContaining({ user: 'anonymous', path: '/docs/internal/intro', decision: 'login', outcome: 'redirect', redirect: '/login' }),
  ])
  for (const line of logged) expect(line).not.toMatch(/eyJ|idToken|CognitoIdentityServiceProvider/)
})

test('the bundle carries the build\'s asset routes: framework chunks are public', async () => {
  const fs = await import('node:fs')
  const framework = fs.readdirSync(path.join(dir, 'out/_next/static/chunks')).find((name: string) => name.startsWith('framework-'))
  expect((await handler(event(`/_next/static/chunks/${framework}`))).uri).toBe(`/_next/static/chunks/${framework}`)
  // An allowed asset writes no access-log line.
  expect(logged).toEqual([])
})

test('a list change rebuilds the authorizer alone (npm run deploy:access): the new bundle applies the new list to the same site build', async () => {
  const fs = await import('node:fs')
  const os = await import('node:os')
  const { execFile } = await import('node:child_process')
  const { promisify } = await import('node:util')
  const { copyProject } = await import('../scripts/audit/copyProject')
  const root = path.resolve(__dirname, '..')
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-deploy-access-'))
  try {
    copyProject(root, work)
    // The deployed site's asset routes and script hashes, from the audit build; nothing of out/ is needed.
    fs.mkdirSync(path.join(work, '.next'))
    fs.copyFileSync(path.join(dir, '.next/asset-routes.json'), path.join(work, '.next/asset-routes.json'))
    fs.copyFileSync(path.join(dir, '.next/script-hashes.json'), path.join(work, '.next/script-hashes.json'))
    fs.copyFileSync(path.join(dir, '.next/audiences.json'), path.join(work, '.next/audiences.json'))
    const site = JSON.parse(fs.readFileSync(path.join(dir, 'audit-site.json'), 'utf8'))
    // Run without holding this process's thread: a blocked event loop misses the local Cognito
    // closing an idle connection, and the next sign-in is sent on it (ECONNRESET).
    const deployAccess = () =>
      promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/deploy/deployAccess.ts', '--no-deploy'], {
        cwd: work,
        env: { ...process.env, DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: `http://127.0.0.1:${site.cognitoPort}`, DOCS_LEADS_USERS: 'leads2' },
      })
    // With other path rules than the build's (the shipped ones; the audit build adds finer rules),
    // it refuses: the site's search indexes and llms files follow the rules they were built with.
    await expect(deployAccess()).rejects.toMatchObject({ stderr: expect.stringMatching(/path rules in access.config.ts .* differ from those the site in out\/ was built with/) })
    // With the build's rules and only a list changed, it rebuilds the authorizer.
    fs.copyFileSync(path.join(dir, 'access.config.ts'), path.join(work, 'access.config.ts'))
    await deployAccess()
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const rebuilt = require(path.join(work, 'edge/dist/index.js')).handler
    const leads1 = amplifyCookieHeader('leads1', await signInIdToken(cognitoUrl, 'leads1', PASSWORD))
    const leads2 = amplifyCookieHeader('leads2', await signInIdToken(cognitoUrl, 'leads2', PASSWORD))
    expect((await rebuilt(event('/docs/leads/intro', leads2))).uri).toBe('/docs/leads/intro.html')
    expect((await rebuilt(event('/docs/leads/intro', leads1))).headers.location[0].value).toBe('/unauthorized?from=%2Fdocs%2Fleads%2Fintro')
    // The shipped bundle, built with the old lists, still lets leads1 in: only the authorizer changed.
    expect((await handler(event('/docs/leads/intro', leads1))).uri).toBe('/docs/leads/intro.html')
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
})
