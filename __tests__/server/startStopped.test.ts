/**
 * @jest-environment node
 *
 * `npm start` stopped while it builds (an IDE's stop button sends npm SIGTERM): the build ends
 * too, within a second or two, not minutes later at its own end. Run in a stand-in project with
 * the real scripts/start.mjs and a build that lasts 30 s and ends with its parent, as
 * pipeline/steps/build.cjs does.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'

jest.setTimeout(60_000)

const root = path.resolve(__dirname, '../..')
const until = async (done: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !done(); ) await new Promise((resolve) => setTimeout(resolve, 50))
  return done()
}

let project = ''
let group = 0
afterAll(() => {
  if (group) {
    try {
      process.kill(-group, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
  fs.rmSync(project, { recursive: true, force: true })
})

test('npm start stopped with SIGTERM during its build ends the build', async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'start-stopped-'))
  fs.mkdirSync(path.join(project, 'scripts'))
  for (const file of ['start.mjs', 'endWithParent.cjs', 'installedDependencies.mjs', 'lastBuild.mjs', 'localCognitoOnly.mjs']) fs.copyFileSync(path.join(root, 'scripts', file), path.join(project, 'scripts', file))
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { start: 'node scripts/start.mjs', build: 'node build.cjs' } }))
  fs.mkdirSync(path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'node_modules/.package-lock.json'), '{}')
  fs.mkdirSync(path.join(project, 'content'))
  fs.writeFileSync(path.join(project, 'content/a.mdx'), '# A\n')
  fs.writeFileSync(
    path.join(project, 'build.cjs'),
    "require('./scripts/endWithParent.cjs').endWithParent()\nrequire('node:fs').writeFileSync(__dirname + '/build.pid', String(process.pid))\nsetTimeout(() => {}, 30000)\n"
  )
  const npm = spawn('npm', ['start'], { cwd: project, detached: true, stdio: 'ignore', env: { ...process.env, DOCS_AUTH_MODE: '' } })
  group = npm.pid as number
  const pidFile = path.join(project, 'build.pid')
  expect(await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', 20_000)).toBe(true)
  const build = Number(fs.readFileSync(pidFile, 'utf8'))
  expect(isRunning(build)).toBe(true)
  process.kill(npm.pid as number, 'SIGTERM')
  expect(await until(() => !isRunning(build), 5_000)).toBe(true)
})
