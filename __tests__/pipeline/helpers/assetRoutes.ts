import type { CompiledAccess } from '../../../lib/access'
import { computeAssetRoutes, type BuildManifest } from '../../../pipeline/steps/assetRoutes'

/** The asset-route map of a build with only these pages' files and these planned files (no media, no dynamic imports). */
export function assetRoutesOf(access: CompiledAccess, build: { pages?: BuildManifest['pages']; polyfillFiles?: string[]; plannedRoutes?: Record<string, string>; files?: string[] }): Record<string, string> {
  return computeAssetRoutes({
    access,
    manifest: { pages: build.pages ?? {}, polyfillFiles: build.polyfillFiles },
    files: build.files ?? [],
    readText: () => '',
    publicRoute: '/login',
    loadable: {},
    plannedRoutes: build.plannedRoutes ?? {},
  })
}
