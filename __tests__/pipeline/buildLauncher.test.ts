/**
 * @jest-environment node
 *
 * `npm run build` runs the build's own modules as one file that esbuild makes (pipeline/steps/
 * build.cjs). What a writer and an admin rely on: an edit of any file the build runs (a step, or
 * access.config.ts) takes effect at the next build; an unchanged build runs the bundle it has; a
 * module that names its own folder still finds its files; a file that does not compile stops the
 * build with its name, line and column. Run against a small project with the launcher and stand-in
 * modules, so the launcher's contract is checked apart from the whole build.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { isRunning } from '../../pipeline/mainProcess'
import { CACHE_PATHS } from '../../pipeline/steps/paths'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

const project = path.resolve(__dirname, '../..')
const BUNDLE_DIR = CACHE_PATHS.buildBundle

/** A project whose build prints a value from access.config.ts and a file found beside its module. */
function launcherProject(): string {
  const root = tempSite('launcher-', {
    'pipeline/steps/build.cjs': fs.readFileSync(path.join(project, 'pipeline/steps/build.cjs')),
    // What the launcher loads before the build: it ends with npm (`npm run build` stopped), and refuses DOCS_ settings in .env files.
    'scripts/endWithParent.cjs': fs.readFileSync(path.join(project, 'scripts/endWithParent.cjs')),
    'scripts/envFileSettings.cjs': fs.readFileSync(path.join(project, 'scripts/envFileSettings.cjs')),
    'pipeline/steps/buildSite.ts': "import { ruleName } from '../../access.config'\nimport { besideMe } from '../render/beside'\nexport function runBuild(): void {\n  console.log(`rule ${ruleName}; beside: ${besideMe()}`)\n}\n",
    'pipeline/render/beside.ts': "import fs from 'node:fs'\nimport path from 'node:path'\nexport const besideMe = () => fs.readFileSync(path.join(__dirname, 'beside.txt'), 'utf8').trim()\n",
    'pipeline/render/beside.txt': 'found\n',
    'access.config.ts': "export const ruleName = 'first'\n",
    'tsconfig.json': fs.readFileSync(path.join(project, 'tsconfig.json')),
  })
  fs.symlinkSync(path.join(project, 'node_modules'), path.join(root, 'node_modules'))
  return root
}

const build = (root: string) => spawnSync(process.execPath, ['pipeline/steps/build.cjs'], { cwd: root, encoding: 'utf8' })

/** The bundles kept, by name, with the inode and time of each. */
function bundles(root: string): Map<string, string> {
  const dir = path.join(root, BUNDLE_DIR)
  return new Map(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.cjs'))
      .map((name) => {
        const stat = fs.statSync(path.join(dir, name))
        return [name, `${stat.ino}:${stat.mtimeMs}`]
      })
  )
}

test('the build runs its modules as one file, made again only when a file it runs changed', () => {
  const root = launcherProject()
  const first = build(root)
  expect(first.stderr).toBe('')
  expect(first.stdout).toBe('rule first; beside: found\n')
  const made = bundles(root)
  expect(made.size).toBe(1)

  // Nothing changed: the same file runs, not made again.
  expect(build(root).stdout).toBe('rule first; beside: found\n')
  expect(bundles(root)).toEqual(made)

  // An admin's edit takes effect at the next build, and the old bundle goes.
  fs.writeFileSync(path.join(root, 'access.config.ts'), "export const ruleName = 'second'\n")
  expect(build(root).stdout).toBe('rule second; beside: found\n')
  const remade = bundles(root)
  expect(remade.size).toBe(1)
  expect([...remade.keys()]).not.toEqual([...made.keys()])

  // So does an edit of a step the entry imports, and of tsconfig.json (how the TypeScript compiles).
  fs.writeFileSync(path.join(root, 'pipeline/render/beside.txt'), 'found again\n')
  expect(build(root).stdout).toBe('rule second; beside: found again\n')
  fs.appendFileSync(path.join(root, 'pipeline/render/beside.ts'), 'export const added = 1\n')
  build(root)
  const afterStep = bundles(root)
  expect([...afterStep.keys()]).not.toEqual([...remade.keys()])
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'))
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, removeComments: true } }))
  build(root)
  expect([...bundles(root).keys()]).not.toEqual([...afterStep.keys()])
})

test('a kept bundle damaged on disk is made again, and the build runs', () => {
  const root = launcherProject()
  build(root)
  const [name] = bundles(root).keys()
  fs.writeFileSync(path.join(root, BUNDLE_DIR, name), 'module.exports = {')
  const again = build(root)
  expect(again.stderr).toBe('')
  expect(again.stdout).toBe('rule first; beside: found\n')
  expect([...bundles(root).keys()]).toEqual([name])
})

test.each([
  ['does not compile', "export const ruleName = 'first'\nexport const broken = {\n", [/^build: a file the build runs does not compile/, /access\.config\.ts:3:0/]],
  // A list in access.config.ts written twice compiles, and the last would silently win.
  ['writes a key twice', "export const ruleName = 'first'\nexport const lists = {\n  leadsUsers: 'leads1',\n  leadsUsers: 'leads2',\n}\n", [/^build: a file the build runs writes a key twice, and only the last would count/, /Duplicate key "leadsUsers" in object literal/, /access\.config\.ts:4:2:/]],
])('a file the build runs that %s stops it, named with its line and column, and keeps no bundle', (_what, config, messages) => {
  const root = launcherProject()
  fs.writeFileSync(path.join(root, 'access.config.ts'), config)
  const failed = build(root)
  expect(failed.status).toBe(1)
  expect(failed.stdout).toBe('')
  for (const message of messages) expect(failed.stderr).toMatch(message)
  expect(fs.existsSync(path.join(root, BUNDLE_DIR)) ? bundles(root).size : 0).toBe(0)
})

test('`npm run build` stopped with SIGTERM, which ends npm and its shell but not the build, ends the build too', async () => {
  const root = launcherProject()
  // A build that would run on for a minute, and says when it has started.
  fs.writeFileSync(path.join(root, 'pipeline/steps/buildSite.ts'), "export function runBuild(): void {\n  console.log('started')\n  setTimeout(() => console.log('finished'), 60_000)\n}\n")
  // npm runs the script under a shell; the shell, killed outright, leaves the build to init.
  const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} pipeline/steps/build.cjs; true`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => shell.stdout!.on('data', (chunk) => String(chunk).includes('started') && resolve()))
  const build = spawnSync('pgrep', ['-f', '-P', String(shell.pid), 'pipeline/steps/build.cjs'], { encoding: 'utf8' }).stdout.trim()
  expect(build).toMatch(/^\d+$/)
  shell.kill('SIGKILL')
  for (let waited = 0; isRunning(Number(build)); waited += 100) {
    if (waited > 5000) {
      process.kill(Number(build), 'SIGKILL')
      throw new Error('the build outlived its npm')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
})
