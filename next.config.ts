import type { NextConfig } from 'next'
import withRspack from 'next-rspack'
import { compileAccess } from './lib/access/compileAccess'
import { READER_VIEW_PATH } from './lib/access/readerView'
import { checkSiteLinks } from './lib/siteLinks'
import { allowedConnectors } from './lib/aiTools/connectLinks'
import accessConfig from './access.config'
import { readAuthSettings, type AuthEnv } from './lib/auth/authSettings'
import { applyPatches, skipServerTraces } from './pipeline/patches'
import { siteBuildId } from './pipeline/buildId'
import os from 'node:os'

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
 * A static export deploys no server, so Next's server file traces (.nft.json, for standalone and
 * serverless hosting) are never used. Collecting them reads `.next/package.json` once per traced
 * module with unbounded concurrency: at 1,000 pages that exhausts the open-file limit (EMFILE)
 * and the build dies while generating pages. Without the plugin there is nothing to trace.
 */
function withoutServerTraces(config: any) {
  config.plugins = config.plugins.filter((plugin: any) => plugin?.constructor?.name !== 'TraceEntryPointsPlugin')
  return config
}
// And no trace of Next's own server either (pipeline/patches/noServerTraces.cjs).
skipServerTraces()

/**
 * No persistent bundler cache. A compile reusing Rspack's cache could name and fill some chunks
 * differently from a compile without it (the runtime chunk and the sign-in chunks, seen in CI), so
 * the same sources could give different files, and pages kept from the last build
 * (pipeline/render/renderPlan.ts) could name chunks the new build no longer has. Every compile
 * starts clean instead: its entries are the same whatever the number of pages (one route serves
 * every page), so it takes a few seconds on any site.
 */
function withoutPersistentCache(config: any) {
  config.cache = false
  return config
}

/**
 * `npm run dev` has no edge; scripts/server/dev.ts runs the authority and names it here, so the
 * browser asks it who the reader is exactly as it asks the edge in production.
 */
const devAuthority = process.env.DOCS_DEV_AUTHORITY
const devRewrites = devAuthority
  ? { rewrites: async () => [{ source: READER_VIEW_PATH, destination: `${devAuthority}${READER_VIEW_PATH}` }] }
  : {}

/**
 * Rspack compiles this site in about half webpack's time. `DOCS_BUNDLER=webpack` builds with
 * webpack instead, to compare the two (npm run bench) or to rule the bundler out of a bug.
 */
const bundler = process.env.DOCS_BUNDLER === 'webpack' ? 'webpack' : 'rspack'
if (process.env.DOCS_BUNDLER && !['webpack', 'rspack'].includes(process.env.DOCS_BUNDLER)) {
  throw new Error(`next.config: DOCS_BUNDLER must be "webpack" or "rspack", not "${process.env.DOCS_BUNDLER}"`)
}

const nextConfig: NextConfig = {
  ...devRewrites,
  output: 'export',
  // From the build's inputs, not the clock: unchanged files keep their names and bytes, so a
  // deploy uploads only what changed (pipeline/buildId.ts).
  generateBuildId: () => siteBuildId(),
  // Pages are .tsx only: MDX is compiled by the content step and served by pages/[[...slug]].tsx.
  pageExtensions: ['tsx'],
  images: { unoptimized: true },
  reactStrictMode: true,
  env: inlinedEnv,
  // `npm test` type-checks the whole project once (tsc --noEmit); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
  // One docs route whatever the number of pages: the compiles are the same size for every site, and
  // run in Next's own process (a build worker's start-up costs seconds and saves nothing here).
  experimental: { cpus: os.cpus().length, webpackBuildWorker: false, serverMinification: false },
  webpack: (config, { isServer, dev }) => {
    if (isServer) withoutServerTraces(config)
    applyPatches(config, {
      bundler,
      isServer,
      dev,
      context: process.cwd(),
    })
    return withoutPersistentCache(config)
  },
}

export default bundler === 'rspack' ? withRspack(nextConfig) : nextConfig
