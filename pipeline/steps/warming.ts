/**
 * What the build loads longest, started before the rest of it loads (./buildSite.ts), so it loads
 * while the build reads content/.
 */
import { CompileWorkers } from '../compile/compileWorkers'
import { LastBuildRenderer } from '../render/lastBuildRenderer'
import type { SitePaths } from './paths'

/** The compile worker and Next's renderer, loading. */
export interface Warming {
  compileWorkers: CompileWorkers
  renderer: LastBuildRenderer
}

/**
 * Starts the compile worker (Nextra's compiler, about a second: a rebuild's page compiles without
 * waiting for it; a build with nothing to compile ends it unused) and Next, to render changed pages
 * with the last build's server bundle if the code is the same.
 */
export function startWarming(paths: SitePaths): Warming {
  const compileWorkers = new CompileWorkers()
  void compileWorkers.warm()
  const renderer = new LastBuildRenderer(paths)
  renderer.warm()
  return { compileWorkers, renderer }
}
