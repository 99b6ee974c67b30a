/**
 * `npm run build`: the site build (./buildSteps.ts), run by ./build.cjs. What loads longest, the
 * compile worker and Next's renderer, starts before the build's own modules load, so they load meanwhile.
 */
import { runAsMain } from '../mainProcess'
import { holdBuildLock } from './buildLock'
import { sitePaths } from './paths'
import { startWarming } from './warming'

export function runBuild(): void {
  const paths = sitePaths()
  // Async, so a build that finds another running ends as any failed build does (runAsMain); nothing
  // is awaited before the warming starts, so it starts as soon as before.
  runAsMain('build', async () => {
    holdBuildLock(paths.root)
    const warming = startWarming(paths)
    return (require('./buildSteps') as typeof import('./buildSteps')).buildSite(paths, warming)
  })
}

if (require.main === module) runBuild()
