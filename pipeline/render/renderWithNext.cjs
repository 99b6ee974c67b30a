/**
 * Renders some pages of the one docs route with the server bundle the last `next build` left in
 * .next/, without compiling anything: `node pipeline/render/renderWithNext.cjs <routes.json> <dir>`
 * writes each route's HTML and data file into <dir>, as `<name>.html` and `<name>.json` (Next's file
 * names: `/` is `index`).
 *
 * It runs the export that `next build` itself runs to prerender a page with static props: Next's
 * exportApp (next/dist/export), told to render these paths of the route, as `next build`'s own
 * export path map names them. So the files are those `next build` writes, byte for byte, which
 * __tests__/integration/rebuild.test.ts checks against a clean build. A private reach of Next's,
 * listed in patches/privateReaches.ts.
 *
 * Its own process, as `next build` is: Next sets globals and process handlers for its export and
 * wants NODE_ENV=production, which the build's process must not take on.
 *
 * With `--when-told` it loads Next and the site's config, then waits for its standard input to
 * end: `render` renders (the routes file is read only then), anything else exits 0 having done
 * nothing. The build starts it so while it scans content/ (./lastBuildRenderer.ts); an error in
 * loading is reported only if it is told to render.
 */
const fs = require('node:fs')
const path = require('node:path')

/** The one docs route's page, as Next names it (pages/[[...slug]].tsx). */
const DOCS_PAGE = '/[[...slug]]'

async function main() {
  const [routesFile, outdir, mode] = process.argv.slice(2)
  if (!routesFile || !outdir || (mode !== undefined && mode !== '--when-told')) throw new Error('usage: renderWithNext.cjs <routes.json> <output dir> [--when-told]')
  const root = process.cwd()
  const loading = load(root).then(
    (loaded) => ({ loaded }),
    (error) => ({ error })
  )
  if (mode === '--when-told' && (await toldWhat()) !== 'render') return
  const { loaded, error } = await loading
  if (error) throw error
  const { config, exportApp, trace } = loaded
  const routes = JSON.parse(fs.readFileSync(routesFile, 'utf8'))
  // As `next build` lists a path of a route with static props for its export.
  const paths = Object.fromEntries(routes.map((route) => [route, { page: DOCS_PAGE, _ssgPath: route }]))
  // Next starts an export process per CPU, each loading Next's renderer, whatever the routes
  // (next/dist/build createStaticWorker), and gives each batch at least this many: a process
  // beyond the batches would load for nothing, beside the one that renders.
  const batches = Math.ceil(routes.length / (config.experimental.staticGenerationMinPagesPerWorker ?? 25))
  const cpus = Math.max(1, Math.min(config.experimental.cpus ?? 1, batches))
  // The export records where it wrote in .next/; that record stays the last `next build`'s.
  const detail = path.join(root, config.distDir, 'export-detail.json')
  const lastDetail = fs.existsSync(detail) ? fs.readFileSync(detail) : null
  try {
    await exportApp(
      root,
      {
        nextConfig: { ...config, exportPathMap: async () => paths, experimental: { ...config.experimental, cpus } },
        enabledDirectories: { app: false, pages: true },
        silent: true,
        buildExport: true,
        pages: [DOCS_PAGE],
        outdir: path.resolve(outdir),
        numWorkers: cpus,
      },
      trace('docs-render')
    )
  } finally {
    if (lastDetail) fs.writeFileSync(detail, lastDetail)
  }
}

/** Next's export and the site's config, loaded as `next build` loads them. */
async function load(root) {
  const loadConfig = require('next/dist/server/config').default
  const { PHASE_PRODUCTION_BUILD } = require('next/constants')
  const exportApp = require('next/dist/export').default
  const { trace } = require('next/dist/trace')
  return { config: await loadConfig(PHASE_PRODUCTION_BUILD, root), exportApp, trace }
}

/** Everything written to standard input, once it ends. */
function toldWhat() {
  return new Promise((resolve) => {
    let text = ''
    process.stdin.setEncoding('utf8')
    process.stdin.on('data', (chunk) => (text += chunk))
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
