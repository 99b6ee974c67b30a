// `npm start`: the one command that installs, builds and runs the site locally with the local
// Cognito and seeded users. Plain Node with no dependencies, so it runs on a fresh clone.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { endWithParent } from './endWithParent.cjs'
import { installNeeded } from './installedDependencies.mjs'
import { needsBuild } from './lastBuild.mjs'
import { refuseProductionMode } from './localCognitoOnly.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
endWithParent()

/** The step running now (the install, the build, then the server): a stop goes to it, and ends this process once it has ended. */
let child = null
let stopped = null
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopped = signal
    if (child) child.kill(signal)
    else process.exit(1)
  })
}

/**
 * Runs `command` (npm and its arguments) without holding this process's thread, so a stop reaches
 * it meanwhile (a synchronous run left a build of minutes running after npm start was stopped).
 * When it fails, its own output has said why: this says which step, and ends, with no stack.
 */
const run = (args, step) =>
  new Promise((resolve) => {
    child = spawn('npm', args, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' } })
    child.on('exit', (code, signal) => {
      child = null
      if (stopped) process.exit(1)
      if (code === 0) return resolve()
      console.error(`npm start: ${step} failed (npm ${args.join(' ')}${signal ? `, ended by ${signal}` : ''}; its output above says why)`)
      process.exit(1)
    })
  })

const install = installNeeded(root)
if (install) {
  console.log(`npm start: installing dependencies (npm ${install.command}: ${install.why})…`)
  await run([install.command, '--no-audit', '--no-fund'], 'the install')
}

refuseProductionMode('npm start')
if (needsBuild(root)) {
  console.log('npm start: building the site (npm run build)…')
  await run(['run', 'build'], 'the build')
}

child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/server/serve.ts'], { stdio: 'inherit' })
child.on('exit', (code) => process.exit(code ?? 0))
