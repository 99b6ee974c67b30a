/**
 * `npm run build`: the site build (./buildSteps.ts), run by ./build.cjs. What loads longest, the
 * compile worker and Next's renderer, starts before the build's own modules load, so they load meanwhile.
 */
import { runAsMain } from '../mainProcess'
import { BuildBusyError, holdBuildLock } from './buildLock'
import { sitePaths } from './paths'
import { startWarming } from './warming'

export function runBuild(): void {
  const paths = sitePaths()
  try {
    holdBuildLock(paths.root)
  } catch (error) {
    if (!(error instanceof BuildBusyError)) throw error
    console.error(error.message)
    process.exit(1)
  }
  const warming = startWarming(paths)
  runAsMain('build', () => (require('./buildSteps') as typeof import('./buildSteps')).buildSite(paths, warming))
}

if (require.main === module) runBuild()
