// Whether `npm start` builds before it serves: plain Node, as scripts/start.mjs runs before any install.
import fs from 'node:fs'
import path from 'node:path'

/** The bundles the build writes into source folders: outputs, not sources. */
const BUILT = new Set(['edge/dist', 'mcp/dist'])

/** The newest modification time below the given paths. */
function newest(root, paths) {
  let latest = 0
  const visit = (p) => {
    const at = path.join(root, p)
    if (!fs.existsSync(at) || BUILT.has(p)) return
    const stat = fs.lstatSync(at)
    if (stat.isSymbolicLink()) return
    if (stat.isDirectory()) fs.readdirSync(at).forEach((name) => visit(path.posix.join(p, name)))
    else latest = Math.max(latest, stat.mtimeMs)
  }
  paths.forEach(visit)
  return latest
}

const SOURCES = ['content', 'pages', 'components', 'lib', 'public', 'styles', 'edge', 'mcp', 'pipeline', 'patches', 'access.config.ts', 'theme.config.tsx', 'theme.tsx', 'next.config.ts', 'package-lock.json']

/**
 * When the last build that finished ended, if it was made for the local Cognito; 0 when none was.
 * A build's last step records out/ (pipeline/steps/paths.ts outRecord), and one that stops part
 * way leaves no record; the edge bundle names the pool it was built for (lib/auth/builtFor.ts). So
 * a failed or production build (npm run build:prod) is built again, not served with a sign-in
 * that goes to AWS.
 */
function finishedLocalBuildAt(root) {
  try {
    if (JSON.parse(fs.readFileSync(path.join(root, 'edge/dist/user-pool.json'), 'utf8')).mode !== 'local' || !fs.existsSync(path.join(root, 'out/index.html'))) return 0
    return fs.statSync(path.join(root, '.cache/out-record.json')).mtimeMs
  } catch {
    return 0
  }
}

/** Whether the project at `root` needs a build before it is served: none finished for the local Cognito, or a source changed since. */
export function needsBuild(root) {
  return finishedLocalBuildAt(root) < newest(root, SOURCES)
}
