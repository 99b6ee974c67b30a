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
 * seconds the first time, and less from the bundler's cache of the last run (patches/next/index.ts
 * withDevCache). So the dev server has Next compile it (./warmDocsRoute.ts) before it says
 * `npm run dev: ready at <url>`, the line a writer opens the browser at; Next's server
 * (./nextDevServer.cjs) says only that it listens. When the last run left
 * the pages' props the route renders from those, so it is compiled first and the content check
 * runs after, rather than beside it on two cores; its result reaches the open pages as an edit's
 * does. On a first start the route cannot render before the first check has written the props, so
 * it is compiled after that check.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { LOCAL_COGNITO, localCognitoEndpoint, readAuthSettings, type AuthSettings } from '../../lib/auth/authSettings'
import { PROPS_INDEX } from '../../lib/render/propsFiles'
import type { RunningServer } from './localServer'
import { portOf, SITE_PORT } from './ports'
import { startPropsEvents } from './propsEvents'
import type { SiteObjects } from './siteObjects'
import type { AccessRules } from './accessRules'
import { routesToWarm, warmDocsRoute } from './warmDocsRoute'

/** Where every server of `npm run dev` listens. */
const HOST = '127.0.0.1'

/** How Next's dev server (./nextDevServer.cjs) ended: `restart` when it asked to be started again (next.config.ts changed). */
interface NextExit {
  server: ChildProcess
  code: number | null
  signal: NodeJS.Signals | null
  restart: boolean
}

const howExited = ({ code, signal }: Pick<NextExit, 'code' | 'signal'>) => signal ?? `code ${code}`

/** Next's dev servers, as ./startDev.mjs forks them: each loads Next's modules, then waits for the environment to serve with. */
export interface NextDevServers {
  /** Forked before this module loaded. */
  first: ChildProcess
  start: () => ChildProcess
}

/** A port nobody listens on now, for the authority, whose URL Next is started with before the authority is made. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** No file at all: Next's dev server serves the pages. */
const NO_FILES: SiteObjects = { where: 'no files', read: async () => null }

/**
 * The authority: serves no files; only its answer to the reader-view path is used.
 * Made whole from one configuration's rules, with the plan of the pages as they are now, so a
 * reader's view names their sections as a build's would.
 */
async function startAuthority(root: string, auth: AuthSettings, jwks: Jwks, rules: AccessRules, port: number): Promise<RunningServer> {
  const [{ startLocalServer }, { audiencesOf }] = await Promise.all([import('./localServer'), import('./accessRules')])
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
    // Next sends it the reader-view path alone: the AI tools' sign-in (its keys, its server) would go unused.
    aiToolSignIn: false,
  })
}

/**
 * What runs beside Next, loaded once Next is started: the access rules, checked (a configuration
 * the build would refuse stops `npm run dev` too), the local Cognito on the port Next was told,
 * and the authority. On a restart the compile worker is not among them: it starts with the first
 * content check (./contentWatch.ts), which follows the ready line, so its load takes no core from
 * Next's start (docs/benchmarks.md). On a first start that check compiles every page before
 * anything is ready, so the worker loads at once (`compileNow`).
 */
async function startBesideNext(root: string, cognitoUrl: string, authorityPort: number, compileNow: boolean) {
  const [{ loadAccessRules }, { startLocalCognito }, { SEEDED_PASSWORD, demoUsers }, { formatContentCheck, warmCompiler, watchContent }] = await Promise.all([
    import('./accessRules'),
    import('../cognito/localCognito'),
    import('../cognito/seed'),
    import('./contentWatch'),
  ])
  const compiler = compileNow ? warmCompiler(root) : undefined
  const rules = loadAccessRules(root)
  // The lists' readers as they are at start: one an edit adds signs in after a restart.
  const users = demoUsers(rules.access.members)
  const cognito = await startLocalCognito({ host: LOCAL_COGNITO.host, port: Number(new URL(cognitoUrl).port), quiet: true, users })
  try {
    if (cognito.url !== cognitoUrl) throw new Error(`the local Cognito listens at ${cognito.url}, not at ${cognitoUrl} as Next was told`)
    console.log(`Local Cognito at ${cognito.url}; demo users ${users.join(', ')} (password ${SEEDED_PASSWORD})`)
    const auth = readAuthSettings({ DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognito.url })
    const jwks = (await fetch(cognito.jwksUrl).then((response) => response.json())) as Jwks
    const authority = await startAuthority(root, auth, jwks, rules, authorityPort)
    return { rules, cognito, auth, jwks, authority, compiler, watchContent, formatContentCheck }
  } catch (error) {
    await cognito.stop()
    throw error
  }
}

async function main(nextServers: NextDevServers) {
  const root = process.cwd()
  // Next's start (its modules, next.config.ts, then listening) is the longest part of ours, and
  // needs only the URLs it is given: it was forked first (./startDev.mjs), and is sent the ports
  // chosen for the local Cognito and the authority before this process loads and starts those
  // (docs/benchmarks.md). Next's rewrite names the authority's URL, so an authority with new rules
  // listens on the same port.
  const cognitoPort = portOf('DOCS_DEV_COGNITO_PORT', process.env.DOCS_DEV_COGNITO_PORT, LOCAL_COGNITO.port, true)
  const port = portOf('PORT', process.env.PORT, SITE_PORT, false)
  const cognitoUrl = localCognitoEndpoint(LOCAL_COGNITO.host, cognitoPort || (await freePort()))
  const authorityPort = await freePort()
  const authorityUrl = `http://${HOST}:${authorityPort}`
  const propsEvents = await startPropsEvents()
  const site = `http://${HOST}:${port}`
  const nextEnv = { DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognitoUrl, DOCS_DEV_AUTHORITY: authorityUrl, DOCS_DEV_PROPS_EVENTS: propsEvents.url }
  /** How an exit of Next's server is taken: until the rest has started, it stops the start. */
  let nextExited = (exit: NextExit) => startFailed(new Error(`Next's dev server exited (${howExited(exit)}) before npm run dev had started`))
  let startFailed: (error: Error) => void = () => undefined
  const nextGone = new Promise<never>((_, reject) => (startFailed = reject))
  nextGone.catch(() => undefined)
  const serving = (server: ChildProcess) => {
    let restart = false
    server.on('message', (message: { restart?: boolean } | null) => (restart ||= message?.restart === true))
    server.on('exit', (code, signal) => nextExited({ server, code, signal, restart }))
    // An error sending means the server exited, which its exit handler says.
    server.send({ env: nextEnv, hostname: HOST, port }, () => undefined)
    return server
  }
  let next = serving(nextServers.first)
  // A restart's route renders from the last run's props: Next compiles it as soon as it listens.
  const restartWarming = fs.existsSync(path.join(root, PROPS_INDEX)) ? warmDocsRoute(site, routesToWarm(root)) : null
  restartWarming?.catch(() => undefined)
  // Next's server is stopped by runDev.
  const started = await Promise.race([startBesideNext(root, cognitoUrl, authorityPort, !restartWarming), nextGone]).catch(async (error: Error) => {
    await propsEvents.stop()
    throw error
  })
  const { rules, cognito, auth, jwks, compiler, watchContent, formatContentCheck } = started
  let { authority } = started
  let warmed = false
  let saidWhy = false
  /** Compiles the route (`warming`, or a warm-up now), then says ready, the line a writer opens the browser at, unless another server of Next's has started since. */
  const warmThenReady = async (warming?: Promise<void> | null) => {
    warmed = true
    const own = next
    await (warming ?? warmDocsRoute(site, routesToWarm(root)))
    if (own === next && !stopped) console.log(`npm run dev: ready at ${site}`)
  }
  let content: ReturnType<typeof watchContent> | undefined
  let stopped = false
  // Problems go to stderr, as the build prints them; a clean check is one line on stdout.
  const watch = () => {
    if (stopped) return
    content = watchContent(
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
        // A first start: the route renders once the first check that passes has written the props.
        if (!warmed && result.ok) void warmThenReady().catch(warmFailed)
        else if (!warmed && !saidWhy) {
          saidWhy = true
          console.log('npm run dev: not ready: no page renders until the content check passes')
        }
        // Only a check that changed some page's props (or the rules) makes open pages fetch theirs:
        // those pages (every one, for new rules); one that did not pass kept the last ones.
        if (result.ok && (result.props.changed.length > 0 || result.props.removed.length > 0 || result.rulesApplied)) propsEvents.changed(result.rulesApplied ? undefined : [...result.props.changed, ...result.props.removed])
        // The open pages show what the terminal does (components/DevProblems.tsx), or nothing once it passes.
        propsEvents.problems(result.problems ?? [])
      },
      (error) => {
        const message = `npm run dev: the content check failed: ${error.message}`
        console.error(message)
        propsEvents.problems([{ route: null, message }])
      },
      compiler
    )
  }
  const warmFailed = (error: Error) => console.error(`npm run dev: ${error.message}`)
  // The last run's props: the route renders from them, so it is compiled first and the check runs after.
  if (restartWarming) void warmThenReady(restartWarming).catch(warmFailed).finally(watch)
  else watch()
  let stopping: Promise<never> | undefined
  const stop = (code: number) =>
    (stopping ??= (async () => {
      stopped = true
      // Not waited for: a first check compiling every page would hold Ctrl-C up; an unsaved store is made again.
      void content?.stop().catch(() => undefined)
      next.kill('SIGTERM')
      await authority.stop()
      await propsEvents.stop()
      await cognito.stop()
      process.exit(code)
    })())
  nextExited = ({ server, code, signal, restart }) => {
    if (stopped || server !== next) return
    // next.config.ts changed: Next's server starts again, and the route is compiled again before ready.
    if (restart) {
      next = serving(nextServers.start())
      if (warmed) void warmThenReady().catch(warmFailed)
      return
    }
    // Ctrl-C reaches Next's server too, which closes and exits 0.
    if (code !== 0) console.error(`npm run dev: Next's dev server exited (${howExited({ code, signal })}); everything stops`)
    void stop(code === 0 ? 0 : 1)
  }
  process.once('SIGINT', () => stop(0))
  process.once('SIGTERM', () => stop(0))
}

/** Runs the dev server beside `nextServers.first`; a failure to start stops that server too. */
export function runDev(nextServers: NextDevServers): void {
  main(nextServers).catch((error) => {
    console.error(`npm run dev: ${error instanceof Error ? error.message : error}`)
    nextServers.first.kill('SIGTERM')
    process.exit(1)
  })
}
