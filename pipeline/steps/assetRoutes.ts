import { governsOwnPath, requirementFor, type CompiledAccess } from '../../lib/access'
import { normalisePath } from '../../lib/access/normalisePath'
import { BUILD_CODE_FOLDERS, BUILD_FILE_FOLDERS, BUILD_FILES_PREFIX } from '../../lib/pathFormats'

/** Next's `.next/build-manifest.json`: the files each page loads (paths relative to `/_next/`). */
export interface BuildManifest {
  pages: Record<string, string[]>
  lowPriorityFiles?: string[]
  /** What a browser without ES modules loads before any page's code (a `nomodule` script). */
  polyfillFiles?: string[]
}

/** Next's build and SSG manifests, under the build's own folder of the build files. */
const BUILD_MANIFEST = new RegExp(`^${BUILD_FILES_PREFIX}[^/]+/_(build|ssg)Manifest\\.js$`)

/**
 * A route for code that readers of different lists share: one that any signed-in reader may open,
 * whatever the lists (the home page in the shipped rules). If the rules have none (the home page
 * itself needs a list), the sign-in page's route: such code is never a page's text (the leak audit
 * checks exactly that), and every reader must be able to load it.
 */
export function sharedCodeRoute(access: CompiledAccess, publicRoute: string): string {
  const rule = access.rules.find((candidate, index) => candidate.require === 'signedIn' && governsOwnPath(access, index))
  return rule?.path ?? publicRoute
}

/**
 * Of the routes that use a file, the one whose rule is least restrictive: the file must reach
 * every reader of any of those pages, and nothing more. Routes with different lists fall back
 * to `shared` (sharedCodeRoute).
 */
export function leastRestrictiveRoute(access: CompiledAccess, routes: Iterable<string>, shared: string): string | null {
  const list = [...new Set(routes)].sort()
  if (list.length === 0) return null
  const requirements = list.map((route) => requirementFor(access, route))
  const publicAt = requirements.indexOf('public')
  if (publicAt >= 0) return list[publicAt]
  const signedInAt = requirements.indexOf('signedIn')
  if (signedInAt >= 0) return list[signedInAt]
  return new Set(requirements).size === 1 ? list[0] : shared
}

export interface AssetRouteInputs {
  access: CompiledAccess
  manifest: BuildManifest
  /** Every file of out/, as `/path` keys. */
  files: string[]
  /** Reads a text file of out/ (CSS and JS), for media references. */
  readText: (key: string) => string
  /** The public route that site-wide files (framework, build manifest, fonts) belong to. */
  publicRoute: string
  /** Next's `.next/react-loadable-manifest.json`: `"<importer> -> <request>"` to the chunks of each dynamic import. */
  loadable: Record<string, { files: string[] }>
  /**
   * The planned aggregates that do not lie under their own rule's paths (lib/access/planAggregates.ts),
   * with the search files as the search step wrote them. Taken from the plan and that step, not
   * found in out/: files left unmapped would fall to the default rule, and their own readers
   * could not fetch them.
   */
  plannedRoutes: Record<string, string>
}

/**
 * Maps each build file that is not a page to the route whose rule governs it, and the folders of
 * build code to shared code's route (an earlier build's files, which no key names).
 */
export function computeAssetRoutes(inputs: AssetRouteInputs): Record<string, string> {
  const { access, manifest, files, publicRoute } = inputs
  const shared = sharedCodeRoute(access, publicRoute)
  const users = new Map<string, Set<string>>()
  const use = (key: string, route: string) => {
    if (!users.has(key)) users.set(key, new Set())
    users.get(key)!.add(route)
  }
  for (const [page, pageFiles] of Object.entries(manifest.pages)) {
    // A dynamic route (the one docs route, pages/[[...slug]].tsx) is code for the pages of every
    // audience: its JavaScript holds the renderer, never a page's text, which comes as data.
    const route = page === '/_app' || page === '/_error' ? publicRoute : page.includes('[') ? shared : normalisePath(page)
    if (route === null) continue
    for (const file of pageFiles) use(`/_next/${file}`, route)
  }
  for (const file of [...(manifest.lowPriorityFiles ?? []), ...(manifest.polyfillFiles ?? [])]) use(`/_next/${file}`, publicRoute)
  for (const key of files) {
    if (BUILD_MANIFEST.test(key)) use(key, publicRoute)
  }
  for (const [key, route] of Object.entries(inputs.plannedRoutes)) use(key, route)

  const routes: Record<string, string> = {}
  for (const [key, routeSet] of users) {
    const route = leastRestrictiveRoute(access, routeSet, shared)
    if (route !== null) routes[key] = route
  }

  // Media (fonts, imported images) belong to whatever references them.
  const media = files.filter((key) => key.startsWith(BUILD_FILE_FOLDERS.media))
  if (media.length > 0) {
    const referrers = files.filter((key) => /\.(css|js)$/.test(key) && routes[key] !== undefined)
    for (const mediaKey of media) {
      const name = mediaKey.slice(mediaKey.lastIndexOf('/') + 1)
      const referencing = referrers.filter((key) => inputs.readText(key).includes(name)).map((key) => routes[key])
      const route = leastRestrictiveRoute(access, referencing, shared)
      if (route !== null) routes[mediaKey] = route
    }
  }

  // Dynamic-import chunks are not in the build manifest; the loadable manifest names them. Every
  // importer is site code (components, libraries): pages are data, and no page imports code
  // (pages/[[...slug]].tsx). So each such chunk is code that every page may load.
  for (const { files: chunkFiles } of Object.values(inputs.loadable)) {
    for (const file of chunkFiles) {
      const key = `/_next/${file}`
      routes[key] = leastRestrictiveRoute(access, [publicRoute, ...(routes[key] ? [routes[key]] : [])], shared) as string
    }
  }
  // An earlier build's code, which the deploy keeps for tabs still open on its pages
  // (scripts/deploy/uploadOrder.ts keptForOpenTabs), is named by no key of this build: its folders
  // give it the rule of shared code, so those tabs' readers can load it. It is code, as this
  // build's is; a file a key names keeps that key's route, and a page's own chunk its page's.
  // A writer's file never lies there (public/_next/ is refused), and no page's text is bundled.
  for (const folder of BUILD_CODE_FOLDERS) routes[folder] = shared
  return routes
}
