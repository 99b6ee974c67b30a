/**
 * After `next build`: removes build files that must not ship, and maps every remaining file to
 * the route whose rule governs it (.next/asset-routes.json), for the edge and the local server.
 */
import fs from 'node:fs'
import path from 'node:path'
import { access } from '../../lib/access'
import { normalisePath } from '../../lib/access/normalisePath'
import { computeAssetRoutes, type BuildManifest } from './assetRoutes'
import { splitRouteManifests } from './routeManifests'
import { ASSET_ROUTES_FILE, listFiles } from './siteFiles'

const OUT = path.resolve('out')
const CONTENT_ROOTS: Array<[dir: string, mount: string]> = [
  ['content/docs/', '/docs/'],
  ['pages/', '/'],
]

function fail(message: string): never {
  console.error(`postbuild: ${message}`)
  process.exit(1)
}

/** The page route of a content or pages module, or null for site code. */
function routeOfSource(modulePath: string): string | null {
  for (const [dir, mount] of CONTENT_ROOTS) {
    if (modulePath.startsWith(dir) && /\.mdx?$/.test(modulePath)) {
      return normalisePath(mount + modulePath.slice(dir.length).replace(/\.mdx?$/, ''))
    }
  }
  return null
}

if (!fs.existsSync(OUT)) fail('out/ does not exist; run `next build` first')

// Nextra copies its page map (every page's title and front matter) and its search data (every
// page's text) into the static chunks. Pages are built against their section's own page map and
// search has one index per section, so the global files must go.
for (const key of listFiles(OUT).filter((key) => /\/(nextra-page-map-[^/]*\.mjs|nextra-data-[^/]*\.json)$/.test(key))) {
  fs.rmSync(path.join(OUT, key))
}
// Next's route manifests name every route; each audience's routes move to a script of its own.
const buildId = fs.readFileSync(path.resolve('.next', 'BUILD_ID'), 'utf8').trim()
const manifestDir = path.join(OUT, '_next', 'static', buildId)
const split = splitRouteManifests({
  access,
  buildId,
  buildManifest: fs.readFileSync(path.join(manifestDir, '_buildManifest.js'), 'utf8'),
  ssgManifest: fs.readFileSync(path.join(manifestDir, '_ssgManifest.js'), 'utf8'),
})
fs.writeFileSync(path.join(manifestDir, '_buildManifest.js'), split.buildManifest)
fs.writeFileSync(path.join(manifestDir, '_ssgManifest.js'), split.ssgManifest)
for (const part of split.parts) {
  fs.mkdirSync(path.dirname(path.join(OUT, part.key)), { recursive: true })
  fs.writeFileSync(path.join(OUT, part.key), part.source)
}

const files = listFiles(OUT)
for (const key of files.filter((key) => /\.(js|html)$/.test(key))) {
  if (fs.readFileSync(path.join(OUT, key), 'utf8').includes('nextra-page-map-.mjs"')) {
    fail(`${key} still loads Nextra's global page map; the per-section page map loader did not apply`)
  }
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.resolve('.next', file), 'utf8'))
const routes = computeAssetRoutes({
  access,
  manifest: readJson('build-manifest.json') as BuildManifest,
  loadable: readJson('react-loadable-manifest.json'),
  files,
  readText: (key) => fs.readFileSync(path.join(OUT, key), 'utf8'),
  publicRootFiles: fs.readdirSync('public', { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name),
  publicRoute: '/login',
  routeOfSource,
})
for (const part of split.parts) routes[part.key] = part.route
fs.writeFileSync(ASSET_ROUTES_FILE, JSON.stringify(routes, null, 1) + '\n')
console.log(`postbuild: ${files.length} files in out/, ${Object.keys(routes).length} build files mapped to routes in ${path.relative('.', ASSET_ROUTES_FILE)}`)
