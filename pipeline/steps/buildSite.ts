/**
 * `npm run build`: the site build (./buildSteps.ts). What loads longest, the compile worker and
 * Next's renderer, starts before the build's own modules load, so they load meanwhile.
 */
import { runAsMain } from '../mainProcess'
import { sitePaths } from './paths'
import { startWarming } from './warming'

if (require.main === module) {
  const paths = sitePaths()
  const warming = startWarming(paths)
  runAsMain('build', () => (require('./buildSteps') as typeof import('./buildSteps')).buildSite(paths, warming))
}
