/**
 * After `next build`: moves each audience's routes out of Next's route manifests, and maps every
 * file of out/ to the route whose rule governs it (the asset-routes file), for the edge and the
 * local server. It runs after the search step: the search folders are governed by their folders
 * (the plan's routes), whatever Pagefind names their files, and are checked for case twins with
 * the rest.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { CompiledAccess } from '../../lib/access'
import { caseTwins, isFolderKey } from '../../lib/access/governingRoute'
import type { PageMapFragment } from '../../lib/navigation/mergePageMaps'
import type { Audience } from '../../lib/access/planAggregates'
import { computeAssetRoutes, type BuildManifest } from './assetRoutes'
import type { SitePaths } from './paths'
import { splitRouteManifests } from './routeManifests'
import { listFiles } from '../files'
import { BUILD_FILES_PREFIX, SIGN_IN_PAGE } from '../../lib/pathFormats'
import type { OutWrites } from './outFiles'
import { NamedError } from '../content/contentError'

export class PostbuildError extends NamedError {
  constructor(message: string) {
    super(`postbuild: ${message}`)
  }
}

export interface AssetRoutes {
  /** Each mapped build file's governing route. */
  routes: Record<string, string>
  /** Every file of out/ after postbuild. */
  files: string[]
  /** The route manifests it wrote into out/ (./outFiles.ts). */
  wrote: OutWrites
}

export interface PostbuildInputs {
  access: CompiledAccess
  /** The build id of the `next build` whose out/ this is. */
  buildId: string
  /** Each audience's page-map fragment, by rule (pipeline/pageMaps.ts), for its route manifest. */
  pageMaps: ReadonlyMap<string, PageMapFragment>
  /** The planned files and folders that need a route (lib/access/planAggregates.ts). */
  plannedRoutes: Record<string, string>
  /** The plan's audiences: each route manifest's name and governing route. */
  audiences: ReadonlyArray<Pick<Audience, 'id' | 'rule' | 'governedBy'>>
}

export function postbuild(paths: SitePaths, inputs: PostbuildInputs): AssetRoutes {
  const { out } = paths
  if (!fs.existsSync(out)) throw new PostbuildError(`${out} does not exist; run \`next build\` first`)
  // Next's route manifests name every route; each audience's routes move to a script of its own.
  const manifestFolder = `${BUILD_FILES_PREFIX}${inputs.buildId}`.slice(1)
  const manifestDir = path.join(out, manifestFolder)
  const buildManifest = fs.readFileSync(path.join(manifestDir, '_buildManifest.js'), 'utf8')
  if (buildManifest.includes('self.__docsRoutes')) {
    throw new PostbuildError(`${path.relative(paths.root, out)} was post-built already; its route manifests are split. Run the whole build again (npm run build)`)
  }
  const split = splitRouteManifests({
    access: inputs.access,
    buildId: inputs.buildId,
    buildManifest,
    ssgManifest: fs.readFileSync(path.join(manifestDir, '_ssgManifest.js'), 'utf8'),
    pageMaps: inputs.pageMaps,
    audiences: inputs.audiences,
  })
  fs.writeFileSync(path.join(manifestDir, '_buildManifest.js'), split.buildManifest)
  fs.writeFileSync(path.join(manifestDir, '_ssgManifest.js'), split.ssgManifest)
  for (const part of split.parts) {
    fs.mkdirSync(path.dirname(path.join(out, part.key)), { recursive: true })
    fs.writeFileSync(path.join(out, part.key), part.source)
  }

  const files = listFiles(out)
  const listed = new Set(files)
  // A folder's key governs whatever its audience's steps wrote there, which may be nothing.
  const missing = Object.keys(inputs.plannedRoutes).filter((key) => !isFolderKey(key) && !listed.has(key))
  if (missing.length) throw new PostbuildError(`the plan placed ${missing.join(', ')}, which out/ does not hold; was out/ rebuilt since?`)

  const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(paths.next, file), 'utf8'))
  const routes = computeAssetRoutes({
    access: inputs.access,
    manifest: readJson('build-manifest.json') as BuildManifest,
    loadable: readJson('react-loadable-manifest.json'),
    files,
    readText: (key) => fs.readFileSync(path.join(out, key), 'utf8'),
    publicRoute: SIGN_IN_PAGE,
    plannedRoutes: inputs.plannedRoutes,
  })
  for (const part of split.parts) routes[part.key] = part.route
  assertNoCaseTwins(listed, routes)
  // By key: Next's manifests list a page's files in the order its bundler's cache left them (a
  // cached rebuild can swap two), and the edge and MCP bundles bake this map in as it is.
  const sorted = Object.fromEntries(Object.entries(routes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  fs.writeFileSync(paths.assetRoutes, JSON.stringify(sorted, null, 1) + '\n')
  return { routes: sorted, files, wrote: { files: [`${manifestFolder}/_buildManifest.js`, `${manifestFolder}/_ssgManifest.js`, ...split.parts.map((part) => part.key.slice(1))] } }
}

/**
 * Fails on a file of out/ (of `files`, as `/path` keys) named like a key of `routes` but for its
 * case: the edge would decide it by the rule of the one it resembles, not by its own path's.
 */
function assertNoCaseTwins(files: ReadonlySet<string>, routes: Record<string, string>): void {
  const twins = caseTwins(files, routes)
  if (twins.length) {
    throw new PostbuildError(
      `out/ holds ${twins.map(({ file, twin }) => `${file} (named like ${twin} but for its case)`).join(', ')}; the edge would decide such a file by the rule of the one it resembles, not by its own path's. Rename it (a writer's file is public/ plus that path)`
    )
  }
}
