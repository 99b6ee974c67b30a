// `npm start`: the one command that installs, builds and runs the site locally with the local
// Cognito and seeded users. Plain Node with no dependencies, so it runs on a fresh clone.
import { execSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { endWithParent } from './endWithParent.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
// Before the install and the build, which can take minutes: npm stopped meanwhile is noticed after them.
endWithParent()
const run = (command) => execSync(command, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' } })

// `npm ci` installs exactly the lock (and fails if it drifted from package.json); `npm install` only
// without one.
if (!fs.existsSync('node_modules/.package-lock.json')) {
  const install = fs.existsSync('package-lock.json') ? 'ci' : 'install'
  console.log(`npm start: installing dependencies (npm ${install})…`)
  run(`npm ${install} --no-audit --no-fund`)
}

/** The newest modification time below the given paths. */
function newest(paths) {
  let latest = 0
  const visit = (p) => {
    if (!fs.existsSync(p)) return
    const stat = fs.lstatSync(p)
    if (stat.isSymbolicLink()) return
    if (stat.isDirectory()) fs.readdirSync(p).forEach((name) => visit(path.join(p, name)))
    else latest = Math.max(latest, stat.mtimeMs)
  }
  paths.forEach(visit)
  return latest
}

const SOURCES = ['content', 'pages', 'components', 'lib', 'public', 'styles', 'edge', 'pipeline', 'patches', 'access.config.ts', 'theme.config.tsx', 'theme.tsx', 'next.config.ts', 'package-lock.json']
const builtAt = fs.existsSync('.next/asset-routes.json') && fs.existsSync('out/index.html') ? fs.statSync('.next/asset-routes.json').mtimeMs : 0
if (process.env.DOCS_AUTH_MODE === 'production') {
  console.error('npm start serves the site with the local Cognito; unset DOCS_AUTH_MODE (a production build is for AWS, see docs/deploy.md).')
  process.exit(1)
}
if (builtAt < newest(SOURCES)) {
  console.log('npm start: building the site (npm run build)…')
  run('npm run build')
}

const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/server/serve.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
