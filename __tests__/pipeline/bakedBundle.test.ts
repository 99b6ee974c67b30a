/** @jest-environment node */
/**
 * The AWS bundles are made again only when something they are made from changed: their sources,
 * their options or the configuration they bake. A writer's edit changes none, so a rebuild keeps them.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { copyProject } from '../../scripts/audit/copyProject'
import type { BakedEdgeConfig } from '../../edge/bakedConfig'
import { BAKED_CONFIG_MODULE, bundleWithConfig } from '../../pipeline/steps/bakedBundle'
import { tempSite } from '../fixtures/tempSite'

const baked = (scriptHashes: string[]) => ({ scriptHashes }) as unknown as BakedEdgeConfig

test('a bundle is kept while its sources, options and baked configuration are as they were, and made again when any changes', async () => {
  const root = tempSite('bundle-', {
    'src/entry.ts': `import config from '${BAKED_CONFIG_MODULE}'\nimport { greet } from './greet'\nexport const handler = () => greet(String(config.scriptHashes))\n`,
    'src/greet.ts': "export const greet = (name: string) => `hello ${name}`\n",
  })
  const options = { root, entry: path.join(root, 'src/entry.ts'), outDir: path.join(root, 'dist') }
  const first = await bundleWithConfig({ ...options, baked: baked(['a']) })
  expect(first.kept).toBe(false)
  const written = fs.statSync(first.file).mtimeMs
  expect(await bundleWithConfig({ ...options, baked: baked(['a']) })).toMatchObject({ kept: true })
  expect(fs.statSync(first.file).mtimeMs).toBe(written)

  // Another baked configuration, another source, or another option: made again.
  expect(await bundleWithConfig({ ...options, baked: baked(['b']) })).toMatchObject({ kept: false })
  expect(fs.readFileSync(first.file, 'utf8')).toContain('"b"')
  fs.writeFileSync(path.join(root, 'src/greet.ts'), "export const greet = (name: string) => `goodbye ${name}`\n")
  expect(await bundleWithConfig({ ...options, baked: baked(['b']) })).toMatchObject({ kept: false })
  expect(fs.readFileSync(first.file, 'utf8')).toContain('goodbye')
  expect(await bundleWithConfig({ ...options, baked: baked(['b']), keepNames: true })).toMatchObject({ kept: false })
  // A source touched but not changed is compared by its digest: kept.
  fs.utimesSync(path.join(root, 'src/greet.ts'), new Date(), new Date(Date.now() + 5000))
  expect(await bundleWithConfig({ ...options, baked: baked(['b']), keepNames: true })).toMatchObject({ kept: true })
  // The bundle itself changed or gone: made again.
  fs.appendFileSync(first.file, '\n// tampered\n')
  expect(await bundleWithConfig({ ...options, baked: baked(['b']), keepNames: true })).toMatchObject({ kept: false })
  expect(fs.readFileSync(first.file, 'utf8')).not.toContain('tampered')
})

test("a source rewritten with the same size inside the clock's tick after the bundle read it makes the bundle again", async () => {
  const root = tempSite('bundle-racy-', {
    'src/entry.ts': `import config from '${BAKED_CONFIG_MODULE}'\nimport { greet } from './greet'\nexport const handler = () => greet(String(config.scriptHashes))\n`,
    'src/greet.ts': "export const greet = (name: string) => `hello ${name}`\n",
  })
  const greet = path.join(root, 'src/greet.ts')
  const options = { root, entry: path.join(root, 'src/entry.ts'), outDir: path.join(root, 'dist'), baked: baked(['a']) }
  // Written just before the bundle reads it: its stamp is not trusted by the next build.
  const justNow = new Date(Date.now() - 500)
  fs.utimesSync(greet, justNow, justNow)
  await bundleWithConfig(options)
  // Same size, and by a coarse clock the same time: only its bytes tell it changed.
  fs.writeFileSync(greet, "export const greet = (name: string) => `howdy ${name}`\n")
  fs.utimesSync(greet, justNow, justNow)
  expect(await bundleWithConfig(options)).toMatchObject({ kept: false })
  expect(fs.readFileSync(path.join(root, 'dist/index.js'), 'utf8')).toContain('howdy')
})

test('`npm run build` with a misspelt list override fails as it starts, naming the variable, not after the render when the bundles bake it', () => {
  const dir = tempSite('baked-settings-')
  copyProject(path.resolve(__dirname, '../..'), dir)
  const build = spawnSync(process.execPath, ['pipeline/steps/build.cjs'], { cwd: dir, encoding: 'utf8', env: { ...process.env, DOCS_LEAD_USERS: 'outsider', NEXT_TELEMETRY_DISABLED: '1' }, timeout: 120_000 })
  expect(build.status).toBe(1)
  expect(build.stderr).toContain('DOCS_LEAD_USERS (did you mean DOCS_LEADS_USERS?) is set, but is no variable of the access rules')
  expect(build.stdout).not.toContain('build: content')
  expect(fs.existsSync(path.join(dir, '.next'))).toBe(false)
})
