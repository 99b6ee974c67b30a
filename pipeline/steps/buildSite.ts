/**
 * `npm run build`: the site build (./buildSteps.ts), run by ./build.cjs. What loads longest, the
 * compile worker and Next's renderer, starts before the build's own modules load, so they load meanwhile.
 */
import { runAsMain } from '../mainProcess'
import { sitePaths } from './paths'
import { startWarming } from './warming'

export function runBuild(): void {
  const paths = sitePaths()
  const warming = startWarming(paths)
  runAsMain('build', () => (require('./buildSteps') as typeof import('./buildSteps')).buildSite(paths, warming))
}

if (require.main === module) runBuild()
