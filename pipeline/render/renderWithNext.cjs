/**
 * Renders some pages of one route with the server bundle the last `next build` left in .next/,
 * without compiling anything: `echo render | node pipeline/render/renderWithNext.cjs <.next dir> <routes.json> <dir> <page>`
 * (the route's page as Next names it, `/[[...slug]]` for the docs route) writes each route's HTML
 * and data file into <dir>, as `<name>.html` and `<name>.json` (Next's file
 * names: `/` is `index`).
 *
 * It runs the export that `next build` itself runs to prerender a page with static props: Next's
 * exportApp (next/dist/export), told to render these paths of the route, as `next build`'s own
 * export path map names them. So the files are those `next build` would write. It renders every
 * docs page: a clean build's `next build` renders none (pipeline/steps/buildSteps.ts
 * runNextBuild), and a rebuild's pages must match a clean build's, byte for byte, which
 * __tests__/integration/rebuild.test.ts checks. This process renders the first batch of pages,
 * and Next's export processes the others (./exportInProcess.cjs). A private reach of Next's,
 * listed in patches/privateReaches.ts.
 *
 * Its own process, as `next build` is: Next sets globals and process handlers for its export and
 * wants NODE_ENV=production, which the build's process must not take on.
 *
 * It loads Next's export, the last build's config and what a render loads (the export worker and
 * the server pages), then waits to be told on its standard input: a line `render` renders (the
 * routes file is read only then); anything else, or the input's end, exits 0 having done nothing.
 * The build starts it while it scans content/ (./lastBuildRenderer.ts); an error in loading is
 * reported only if it is told to render.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { loadExport, pagesRenderedHere, preloadRender } = require('./exportInProcess.cjs')

/** Where `next build` records the config its server runs with. */
const SERVER_FILES = 'required-server-files.json'

async function main() {
  const [nextArg, routesFile, outdir, page] = process.argv.slice(2)
  if (!nextArg || !routesFile || !outdir || !page?.startsWith('/')) throw new Error('usage: renderWithNext.cjs <.next dir> <routes.json> <output dir> <page, as Next names it>')
  const root = process.cwd()
  const nextDir = path.resolve(nextArg)
  const loading = Promise.resolve()
    .then(() => {
      const loaded = load(root, nextDir)
      preloadRender(nextDir, page)
      return { loaded }
    })
    .catch((error) => ({ error }))
  if ((await toldWhat()) !== 'render') return
  const { loaded, error } = await loading
  if (error) throw error
  const { config, exportApp, trace } = loaded
  const routes = JSON.parse(fs.readFileSync(routesFile, 'utf8'))
  // As `next build` lists a path of a route with static props for its export.
  const paths = Object.fromEntries(routes.map((route) => [route, { page, _ssgPath: route }]))
  // One batch per CPU, each of at least this many pages (next/dist/export): this process renders the
  // first, and an export process each other (./exportInProcess.cjs), which would load for nothing
  // beyond the batches.
  const batches = Math.ceil(routes.length / (config.experimental.staticGenerationMinPagesPerWorker ?? 25))
  // The machine's cores, not the config's: `next build` itself renders no docs page and takes one.
  const cpus = Math.max(1, Math.min(os.availableParallelism(), batches))
  // The export records where it wrote in .next/; that record stays the last `next build`'s.
  const detail = path.join(nextDir, 'export-detail.json')
  const lastDetail = fs.existsSync(detail) ? fs.readFileSync(detail) : null
  try {
    await exportApp(
      root,
      {
        nextConfig: { ...config, exportPathMap: async () => paths, experimental: { ...config.experimental, cpus } },
        enabledDirectories: { app: false, pages: true },
        silent: true,
        buildExport: true,
        pages: [page],
        outdir: path.resolve(outdir),
        numWorkers: cpus,
      },
      trace('docs-render')
    )
  } finally {
    if (lastDetail) fs.writeFileSync(detail, lastDetail)
  }
  const here = pagesRenderedHere()
  console.log(`render: ${routes.length} pages, ${here === routes.length ? "in the renderer's own process" : `${here} of them in the renderer's own process, the others in Next's export processes`}`)
}

/**
 * Next's export, and the config the last `next build` ran with, as it recorded it for its server
 * (required-server-files.json). That build's ID is this one's (./reuseLastBuild.ts checks it), so
 * its config came from the same inputs; loading next.config.ts again (TypeScript, SWC and the
 * site's modules) would cost more CPU than the render, on the cores the content steps are using.
 * The `.env` files are loaded into the environment, as Next's config loading does.
 */
function load(root, nextDir) {
  const exportApp = loadExport()
  const { trace } = require('next/dist/trace')
  require('@next/env').loadEnvConfig(root, false, { info: () => {}, error: console.error })
  const file = path.join(nextDir, SERVER_FILES)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: the last next build did not finish, so the build cannot render with it; remove ${nextDir} to build anew`)
  const { config } = JSON.parse(fs.readFileSync(file, 'utf8'))
  return { config, exportApp, trace }
}

/**
 * The first line written to standard input, or all of it if it ends first. A line, because the
 * build's write reaches the pipe at once, while its end waits for the build's thread to be free.
 */
function toldWhat() {
  return new Promise((resolve) => {
    let text = ''
    process.stdin.setEncoding('utf8')
    process.stdin.on('data', (chunk) => {
      text += chunk
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')).trim())
    })
    process.stdin.on('end', () => resolve(text.trim()))
    process.stdin.on('error', () => resolve(''))
  })
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
)
