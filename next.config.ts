import type { NextConfig } from 'next'
import withRspack from 'next-rspack'
import { compileAccess } from './lib/access/compileAccess'
import { READER_VIEW_PATH } from './lib/access/readerView'
import { DEV_PROPS_EVENTS_PATH } from './lib/render/devPropsEvents'
import { checkSiteLinks } from './lib/siteLinks'
import { allowedConnectors } from './lib/aiTools/connectLinks'
import accessConfig from './access.config'
import { readAuthSettings, type AuthEnv } from './lib/auth/authSettings'
import { applyPatches, devSourceMaps } from './patches'
import { siteBuildId } from './pipeline/buildId'

/**
 * Next hands this key to its SWC transform, as the salt of server-action ids (this site has none).
 * Left to itself, Next makes a random key whenever it finds none kept under .next/cache (a fresh
 * clone, CI, a copy of the project), so two builds of the same sources would compile with
 * different options. Fixed, they compile alike. A static export has no server actions for the key
 * to protect, so a fixed key costs nothing.
 */
process.env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY ??= 'c3RhdGljIGV4cG9ydCwgbm8gc2VydmVyIGFjdGlvbnM='

// Fail the build before compiling anything when the access rules or auth settings are wrong.
compileAccess(accessConfig)
const auth = readAuthSettings(process.env as AuthEnv)

/**
 * Variables inlined into the client bundle so the browser sees the same auth settings as the
 * build. The access lists are not among them: only the authority holds those.
 */
const inlinedEnv: Record<string, string> = {
  DOCS_AUTH_MODE: auth.mode,
  DOCS_COGNITO_REGION: auth.region,
  DOCS_COGNITO_USER_POOL_ID: auth.userPoolId,
  DOCS_COGNITO_CLIENT_ID: auth.userPoolClientId,
}
if (auth.endpoint) inlinedEnv.DOCS_COGNITO_ENDPOINT = auth.endpoint
// "Edit this page" and "Report a problem" (lib/siteLinks.ts): checked here, shown only when set.
const links = checkSiteLinks({ sourceUrl: process.env.DOCS_SOURCE_URL || undefined, reportUrl: process.env.DOCS_REPORT_URL || undefined })
if (links.sourceUrl) inlinedEnv.DOCS_SOURCE_URL = links.sourceUrl
if (links.reportUrl) inlinedEnv.DOCS_REPORT_URL = links.reportUrl
if (auth.federation) {
  inlinedEnv.DOCS_FEDERATED_PROVIDER = auth.federation.provider
  inlinedEnv.DOCS_COGNITO_DOMAIN = auth.federation.domain
  inlinedEnv.DOCS_FEDERATED_CLIENT_ID = auth.federation.clientId
}
// The hosted AI apps (claude.ai, ChatGPT) whose connector steps the AI tools page shows: the ids of
// those the admin allowed in aiTools.hostedRedirectUris, never the URIs or any list.
inlinedEnv.DOCS_AI_CONNECTORS = allowedConnectors(accessConfig.aiTools?.hostedRedirectUris ?? []).join(',')
/**
 * The docs theme shows its search box only when Nextra's plugin says search is on. Pages are not
 * Nextra's modules any more (pages/[[...slug]].tsx renders the content step's documents), so the
 * plugin is not used; the site's own search box (components/SiteSearch.tsx) is on.
 */
inlinedEnv.NEXTRA_SEARCH = 'true'
/**
 * The optional ones are inlined too when unset, as '' (which their readers take as unset), and so
 * is the locale Nextra's plugin would set (the theme reads it; this site has one language): a
 * `process.env.X` left in the bundle reads the `process` object at run time, which brings Next's
 * polyfill of it into every page's first load.
 */
for (const name of ['DOCS_COGNITO_ENDPOINT', 'DOCS_SOURCE_URL', 'DOCS_REPORT_URL', 'DOCS_FEDERATED_PROVIDER', 'DOCS_COGNITO_DOMAIN', 'DOCS_FEDERATED_CLIENT_ID', 'NEXTRA_DEFAULT_LOCALE']) inlinedEnv[name] ??= ''

/**
 * `npm run dev` has no edge; scripts/server/dev.ts runs the authority and names it here, so the
 * browser asks it who the reader is exactly as it asks the edge in production. It also names where
 * the open docs pages hear that props changed (scripts/server/propsEvents.ts), on the same origin.
 */
const devRewrites = (
  [
    [READER_VIEW_PATH, process.env.DOCS_DEV_AUTHORITY],
    [DEV_PROPS_EVENTS_PATH, process.env.DOCS_DEV_PROPS_EVENTS],
  ] as const
)
  .filter(([, server]) => server)
  .map(([source, server]) => ({ source, destination: `${server}${source}` }))

/**
 * Rspack compiles this site in about half webpack's time. `DOCS_BUNDLER=webpack` builds with
 * webpack instead, to compare the two (npm run bench) or to rule the bundler out of a bug.
 */
const bundler = process.env.DOCS_BUNDLER === 'webpack' ? 'webpack' : 'rspack'
if (process.env.DOCS_BUNDLER && !['webpack', 'rspack'].includes(process.env.DOCS_BUNDLER)) {
  throw new Error(`next.config: DOCS_BUNDLER must be "webpack" or "rspack", not "${process.env.DOCS_BUNDLER}"`)
}

/** `npm run dev` sends the browser's scripts without source maps unless DOCS_DEV_SOURCE_MAPS=1 (patches/next/index.ts withoutDevSourceMaps). */
const keepDevSourceMaps = devSourceMaps()

const nextConfig: NextConfig = {
  ...(devRewrites.length ? { rewrites: async () => devRewrites } : {}),
  // A static export. Not in `npm run dev`, whose docs route renders pages added since Next listed
  // the paths (lib/render/docsPages.ts DOCS_FALLBACK), which Next refuses under `output: 'export'`.
  output: process.env.NODE_ENV === 'development' ? undefined : 'export',
  // From the build's inputs, not the clock: unchanged files keep their names and bytes, so a
  // deploy uploads only what changed (pipeline/buildId.ts).
  generateBuildId: () => siteBuildId(),
  // Pages are .tsx only: MDX is compiled by the content step and served by pages/[[...slug]].tsx.
  pageExtensions: ['tsx'],
  images: { unoptimized: true },
  // After compiling, `next build` traces the files Next's own server needs (.next/*.nft.json), for
  // standalone and serverless hosting. A static export deploys no server, and the trace walks
  // Next's whole dist (docs/benchmarks.md). The trace of each page's server files is a plugin this
  // does not reach (patches/next/index.ts withoutServerTraces).
  outputFileTracingExcludes: { '*': ['**/*'] },
  // The only Next server this site runs is `npm run dev`'s, on 127.0.0.1: gzipping its
  // development scripts for every page opened took longer than sending them (docs/benchmarks.md).
  // The static export is compressed by CloudFront.
  compress: false,
  reactStrictMode: true,
  env: inlinedEnv,
  // `npm test` type-checks the whole project once (tsc --noEmit); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
  // One docs route whatever the number of pages: the compiles are the same size for every site, and
  // run in Next's own process (a build worker's start-up costs seconds and saves nothing here).
  // One process for its static checks and one for its export: `next build` renders only the site's
  // own pages, and the docs pages are rendered after it exits (pipeline/steps/buildSteps.ts runNextBuild).
  experimental: { cpus: 1, webpackBuildWorker: false, serverMinification: false },
  // Every change to a dependency and to Next's bundling (patches/).
  webpack: (config, { isServer, dev }) => applyPatches(config, { bundler, isServer, dev, context: process.cwd(), env: inlinedEnv, devSourceMaps: keepDevSourceMaps }),
}

export default bundler === 'rspack' ? withRspack(nextConfig) : nextConfig
