/**
 * `npm run dev`: Next's dev server with hot reload, plus the local Cognito so sign-in works, and
 * the authority that tells the browser who its reader is (the local server's answer to the
 * reader-view path; next.config.ts rewrites that one path to it). There is no edge here: every
 * file is served to anyone, and only the client guard applies, which is user interface.
 *
 * Ports: PORT for Next (default 3000) and DOCS_DEV_COGNITO_PORT for the local Cognito (default
 * 9229; 0 picks a free one), so a test can run its own dev server beside another. Next is given the
 * Cognito's endpoint as DOCS_COGNITO_ENDPOINT, which next.config.ts inlines into the browser's
 * Amplify config.
 *
 * It runs the build's content check at start and after each change of a page (./contentWatch.ts):
 * a page whose MDX does not compile is named in the terminal as the build names it,
 * `file:line:column: <the compiler's message>`, and the server keeps running. It follows
 * access.config.ts the same way: after an edit that passes the build's checks of it, the pages'
 * props are written with the new page maps and the authority is started again, on its port, with
 * the new rules and audiences; an edit that does not pass is named and the last rules stay.
 *
 * After each check that wrote the pages' props, it tells the open docs pages (./propsEvents.ts,
 * which next.config.ts rewrites one path to as it does the reader-view path), and they fetch their
 * props again: Next compiles nothing for a content edit.
 *
 * Next compiles a route when it is first asked for it: the one docs route's 1,500 modules take
 * seconds the first time, and about half a second from the bundler's cache of the last run
 * (patches/next/index.ts withDevCache). So the dev server asks for the home page once, as soon as
 * the route can render it: at once when the last run left the pages' props (the route renders
 * from those while the first check runs), else when the first check has written them. Never
 * before that, as the route would fail on props that are not there; nor, on a first start, during
 * the first check, whose compile of every page the route's compile would slow on two cores.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { LOCAL_COGNITO, readAuthSettings, type AuthSettings } from '../../lib/auth/authSettings'
import { PROPS_INDEX } from '../../lib/render/propsFiles'
import { startLocalCognito } from '../cognito/localCognito'
import { SEEDED_PASSWORD, SEEDED_USERS } from '../cognito/seed'
import { startLocalServer, type RunningServer } from './localServer'
import { startPropsEvents } from './propsEvents'
import type { SiteObjects } from './siteObjects'
import { formatContentCheck, watchContent } from './contentWatch'
import { audiencesOf, loadAccessRules, type AccessRules } from './accessRules'

/** DOCS_DEV_COGNITO_PORT, checked before anything starts, so a bad value is reported by its name, not as a listen error. */
function cognitoPort(value = process.env.DOCS_DEV_COGNITO_PORT): number {
  if (!value) return LOCAL_COGNITO.port
  const port = Number(value)
  if (!/^\d{1,5}$/.test(value) || port > 65535) {
    throw new RangeError(`DOCS_DEV_COGNITO_PORT must be a port number (0-65535; 0 picks a free one), not "${value}"`)
  }
  return port
}

/** No file at all: Next's dev server serves the pages. */
const NO_FILES: SiteObjects = { where: 'no files', read: async () => null }

/**
 * The authority: serves no files; only its answer to the reader-view path is used.
 * Made whole from one configuration's rules, with the plan of the pages as they are now, so a
 * reader's view names their sections as a build's would.
 */
function startAuthority(root: string, auth: AuthSettings, jwks: Jwks, rules: AccessRules, port: number): Promise<RunningServer> {
  return startLocalServer({
    objects: NO_FILES,
    auth,
    jwks,
    assetRoutes: {},
    // It serves no page, so its policy needs no inline-script hash.
    scriptHashes: [],
    access: rules.access,
    aiTools: rules.aiTools,
    audiences: audiencesOf(root, rules.access),
    port,
  })
}

/**
 * Asks Next for the home page once, as a browser would, so the docs route is compiled before a
 * writer opens a page; waits for Next to listen. What it answers does not matter here.
 */
async function warmDocsRoute(site: string): Promise<void> {
  const started = Date.now()
  while (Date.now() - started < 120_000) {
    try {
      await (await fetch(`${site}/`)).arrayBuffer()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function main() {
  const root = process.cwd()
  // Checked before anything starts: a configuration the build would refuse stops `npm run dev` too.
  const rules = loadAccessRules(root)
  const cognito = await startLocalCognito({ host: LOCAL_COGNITO.host, port: cognitoPort(), quiet: true })
  const port = process.env.PORT ?? '3000'
  const auth = readAuthSettings({ DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognito.url })
  const jwks = (await fetch(cognito.jwksUrl).then((response) => response.json())) as Jwks
  let authority = await startAuthority(root, auth, jwks, rules, 0)
  // Next's rewrite names this URL, so an authority with new rules listens on the same port.
  const authorityUrl = authority.url
  const authorityPort = Number(new URL(authorityUrl).port)
  const propsEvents = await startPropsEvents()
  console.log(`Local Cognito at ${cognito.url}; demo users ${SEEDED_USERS.join(', ')} (password ${SEEDED_PASSWORD})`)
  const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '-H', '127.0.0.1', '-p', port], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1', DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognito.url, DOCS_DEV_AUTHORITY: authorityUrl, DOCS_DEV_PROPS_EVENTS: propsEvents.url },
  })
  const site = `http://127.0.0.1:${port}`
  // The last run's props, which the route can render the home page from until the first check ends.
  let warmed = fs.existsSync(path.join(root, PROPS_INDEX))
  if (warmed) void warmDocsRoute(site)
  // Problems go to stderr, as the build prints them; a clean check is one line on stdout.
  const content = watchContent(
    root,
    {
      served: rules,
      // The old authority is stopped whole and a new one made whole from the new rules: no request
      // is answered with half of each. A view asked for in between fails, and the page asks again on its next load.
      apply: async (applied) => {
        await authority.stop()
        authority = await startAuthority(root, auth, jwks, applied, authorityPort).catch((error: Error) => {
          throw new Error(`the reader-view authority did not start again on port ${authorityPort} (${error.message}); restart npm run dev`)
        })
      },
    },
    (result) => {
      (result.ok ? console.log : console.error)(formatContentCheck(result))
      if (result.ok && !warmed) {
        warmed = true
        void warmDocsRoute(site)
      }
      // Only a check that changed some page's props (or the rules) makes the open pages fetch theirs;
      // one that did not pass kept the last ones.
      if (result.ok && (result.props.changed.length > 0 || result.props.removed.length > 0 || result.rulesApplied)) propsEvents.changed()
    },
    (error) => console.error(`npm run dev: the content check failed: ${error.message}`)
  )
  const stop = async (code: number) => {
    content.stop()
    next.kill('SIGTERM')
    await authority.stop()
    await propsEvents.stop()
    await cognito.stop()
    process.exit(code)
  }
  next.on('exit', (code) => stop(code ?? 0))
  process.once('SIGINT', () => stop(0))
  process.once('SIGTERM', () => stop(0))
}

main().catch((error) => {
  console.error(`npm run dev: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
