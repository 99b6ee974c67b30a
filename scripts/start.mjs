// `npm start`: the one command that installs, builds and runs the site locally with the local
// Cognito and seeded users. Plain Node with no dependencies, so it runs on a fresh clone.
import { execSync, spawn } from 'node:child_process'
import path from 'node:path'
import { endWithParent } from './endWithParent.cjs'
import { installNeeded } from './installedDependencies.mjs'
import { needsBuild } from './lastBuild.mjs'
import { refuseProductionMode } from './localCognitoOnly.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
// Before the install and the build, which can take minutes: npm stopped meanwhile is noticed after them.
endWithParent()
/** Runs `command`; when it fails, its own output has said why: this says which step, and ends, with no stack. */
const run = (command, step) => {
  try {
    execSync(command, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' } })
  } catch {
    console.error(`npm start: ${step} failed (${command}; its output above says why)`)
    process.exit(1)
  }
}

const install = installNeeded(root)
if (install) {
  console.log(`npm start: installing dependencies (npm ${install.command}: ${install.why})…`)
  run(`npm ${install.command} --no-audit --no-fund`, 'the install')
}

refuseProductionMode('npm start')
if (needsBuild(root)) {
  console.log('npm start: building the site (npm run build)…')
  run('npm run build', 'the build')
}

const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/server/serve.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
