/**
 * @jest-environment node
 *
 * Each patch to Next (patches/next/) against the installed Next: an upgrade that changes what a
 * patch relies on fails the test that names the patch. How Rspack splits the browser's code is in
 * ./clientChunks.test.ts.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DYNAMIC_CSS_MANIFEST } from 'next/dist/shared/lib/constants'
import type { BundlerConfig } from '../../patches'
import { DEV_SOURCE_MAP_PLUGIN, DEV_SOURCE_MAPS_ENV, devSourceMaps, DYNAMIC_CSS_MANIFEST_FILE, patchNext, TRACE_PLUGIN, withoutServerTraces } from '../../patches/next'

describe('withoutServerTraces', () => {
  const TRACE_PLUGIN_FILE = 'next/dist/build/webpack/plugins/next-trace-entrypoints-plugin.js'

  test("Next's server compile still adds its page tracer as a plugin of that class name", () => {
    const config = fs.readFileSync(path.join(process.cwd(), 'node_modules/next/dist/build/webpack-config.js'), 'utf8')
    expect(config).toContain(`isNodeServer && !dev && new (require('./webpack/plugins/next-trace-entrypoints-plugin')).${TRACE_PLUGIN}(`)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(require(TRACE_PLUGIN_FILE)[TRACE_PLUGIN].name).toBe(TRACE_PLUGIN)
  })

  test('drops that plugin from the server compile, and only it', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Tracer = require(TRACE_PLUGIN_FILE)[TRACE_PLUGIN] as { prototype: object }
    const other = { apply() {} }
    const config: BundlerConfig = { module: { rules: [] }, resolve: {}, plugins: [Object.create(Tracer.prototype), other, null] }
    withoutServerTraces(config)
    expect(config.plugins).toEqual([other, null])
  })
})

describe('withoutPersistentCache', () => {
  test('every compile of a build starts without the bundler cache, on the server and in the browser', () => {
    // Rspack's browser compile is left out: its chunk split needs Next's own groups (clientChunks.test.ts).
    for (const [bundler, isServer] of [['webpack', true], ['webpack', false], ['rspack', true]] as const) {
      const config: BundlerConfig = { module: { rules: [] }, resolve: {}, cache: { type: 'filesystem' } }
      patchNext(config, { bundler, isServer, dev: false, context: '/site' })
      expect([bundler, isServer, config.cache, config.experiments]).toEqual([bundler, isServer, false, undefined])
    }
  })
})

describe('withDevCache', () => {
  const devCache = (name: string, env: Record<string, string>, devSourceMaps = false) => {
    const config: BundlerConfig = { name, module: { rules: [] }, resolve: {}, cache: { type: 'filesystem' }, experiments: { css: true } }
    patchNext(config, { bundler: 'rspack', isServer: name !== 'client', dev: true, context: '/site', env, devSourceMaps })
    return config
  }

  test("`npm run dev` keeps Rspack's cache on disk, one folder per compile, dropped when what compiles changes", () => {
    const client = devCache('client', { DOCS_AUTH_MODE: 'local' })
    const server = devCache('server', { DOCS_AUTH_MODE: 'local' })
    const cacheOf = (config: BundlerConfig) => (config.experiments as { cache: { type: string; version: string; buildDependencies: string[]; storage: { directory: string } } }).cache
    expect(client.cache).toBe(true)
    expect((client.experiments as { css?: boolean }).css).toBe(true)
    expect(cacheOf(client)).toMatchObject({ type: 'persistent', storage: { type: 'filesystem', directory: '/site/.next/cache/rspack-dev/client' } })
    expect(cacheOf(server).storage.directory).toBe('/site/.next/cache/rspack-dev/server')
    expect(cacheOf(client).buildDependencies).toEqual(expect.arrayContaining(['/site/next.config.ts', '/site/tsconfig.json', '/site/package-lock.json']))
    // Each patch file by name, whatever Rspack makes of a folder: the project's own, here.
    const project = { name: 'client', module: { rules: [] }, resolve: {} } as BundlerConfig
    patchNext(project, { bundler: 'rspack', isServer: false, dev: true, context: process.cwd() })
    expect(cacheOf(project).buildDependencies).toEqual(expect.arrayContaining([path.join(process.cwd(), 'patches/theme/lazySidebarFolders.cjs'), path.join(process.cwd(), 'patches/next/index.ts')]))
    // A value the bundle inlines (another local Cognito) is another cache; the same values, the same one.
    expect(cacheOf(devCache('client', { DOCS_AUTH_MODE: 'local' })).version).toBe(cacheOf(client).version)
    expect(cacheOf(devCache('client', { DOCS_AUTH_MODE: 'cognito' })).version).not.toBe(cacheOf(client).version)
    // Scripts with their source maps (DOCS_DEV_SOURCE_MAPS=1) are another cache too.
    expect(cacheOf(devCache('client', { DOCS_AUTH_MODE: 'local' }, true)).version).not.toBe(cacheOf(client).version)
    expect(cacheOf(server).version).not.toBe(cacheOf(client).version)
  })

  test('webpack in dev keeps no cache (the comparison bundler, as in a build)', () => {
    const config: BundlerConfig = { module: { rules: [] }, resolve: {}, cache: { type: 'filesystem' } }
    patchNext(config, { bundler: 'webpack', isServer: false, dev: true, context: '/site' })
    expect(config.cache).toBe(false)
  })
})

describe('withDevDynamicCssManifest', () => {
  const nextFile = (file: string) => fs.readFileSync(require.resolve(`next/dist/${file}`), 'utf8')

  test("Next's dev server reads the dynamic-CSS manifest for every page, retrying a missing one, and writes it only in a production build", () => {
    // When one of these fails, Next has changed how it reads or writes the manifest: the patch may be needed no more.
    expect(`${DYNAMIC_CSS_MANIFEST}.json`).toBe(DYNAMIC_CSS_MANIFEST_FILE)
    const loadComponents = nextFile('server/load-components.js')
    expect(loadComponents).toContain('const manifestLoadAttempts = isDev ? 3 : 1;')
    expect(loadComponents).toMatch(/loadManifestWithRetries\(\(0, _path\.join\)\(distDir, `\$\{_constants\.DYNAMIC_CSS_MANIFEST\}\.json`\), manifestLoadAttempts\)/)
    expect(nextFile('build/webpack/plugins/react-loadable-plugin.js')).toContain('const shouldCreateDynamicCssManifest = !this.dev && this.isPagesDir;')
  })

  test('the browser compile of `npm run dev` writes it, empty, beside the other manifests; a build and the server compile do not', async () => {
    // webpack for a build's browser compile: Rspack's needs Next's own chunk groups (clientChunks.test.ts).
    const pluginsOf = (isServer: boolean, dev: boolean) => {
      const config: BundlerConfig = { name: isServer ? 'server' : 'client', module: { rules: [] }, resolve: {} }
      patchNext(config, { bundler: dev ? 'rspack' : 'webpack', isServer, dev, context: '/site' })
      return config.plugins ?? []
    }
    expect(pluginsOf(false, false)).toHaveLength(0)
    expect(pluginsOf(true, true)).toHaveLength(0)
    expect(pluginsOf(false, true)).toHaveLength(1)

    // A real Rspack compile with the plugin, as Next's browser compile has it. A process of its own:
    // Rspack's native module keeps handles open in the process that loads it, which kept the test's
    // worker from exiting.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-css-manifest-'))
    try {
      fs.writeFileSync(path.join(dir, 'entry.js'), 'export const page = 1\n')
      const script = `(async () => {
        const { rspack } = require('@rspack/core')
        const { patchNext } = require('./patches/next')
        const config = { name: 'client', module: { rules: [] }, resolve: {} }
        patchNext(config, { bundler: 'rspack', isServer: false, dev: true, context: '/site' })
        const dir = ${JSON.stringify(dir)}
        const compiler = rspack({ mode: 'development', context: dir, entry: './entry.js', output: { path: dir + '/out' }, plugins: config.plugins })
        const stats = await new Promise((resolve, reject) => compiler.run((error, result) => (error || !result ? reject(error) : resolve(result))))
        await new Promise((resolve) => compiler.close(resolve))
        console.log(JSON.stringify({ errors: stats.hasErrors() }))
      })()`
      const output = execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '-e', script], { cwd: process.cwd(), encoding: 'utf8' })
      expect(JSON.parse(output)).toEqual({ errors: false })
      expect(fs.readFileSync(path.join(dir, 'out', DYNAMIC_CSS_MANIFEST_FILE), 'utf8')).toBe('[]')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('withoutDevSourceMaps', () => {
  interface Compile {
    devtool?: unknown
    names: string[]
    /** The plugins but the source maps', before the patch. */
    others: string[]
  }
  /**
   * What Next's base block (next/dist/build/webpack/config/blocks/base.js) gives `next dev`'s
   * compiles with `bundler`, and what the patch leaves of it. A process of its own, as above: the
   * base block loads Rspack's native module for Rspack, whose handles kept the test's worker alive.
   */
  const nextBase = (bundler: 'webpack' | 'rspack') => {
    const script = `
      const { base } = require('next/dist/build/webpack/config/blocks/base.js')
      const { patchNext, DEV_SOURCE_MAP_PLUGIN } = require('./patches/next')
      const make = (dev, isServer) => base({ isDevelopment: dev, isServer, targetWeb: !isServer, isClient: !isServer }, { module: { rules: [] }, resolve: {} })
      const names = (config) => (config.plugins ?? []).map((plugin) => plugin.constructor.name)
      const compile = (dev, isServer, patch) => {
        const config = make(dev, isServer)
        const others = names(config).filter((name) => name !== DEV_SOURCE_MAP_PLUGIN)
        if (patch) patchNext(config, { bundler: ${JSON.stringify(bundler)}, isServer, dev: true, context: '/site', devSourceMaps: patch === 'keep' })
        return { devtool: config.devtool, names: names(config), others }
      }
      console.log(JSON.stringify({
        devBrowser: compile(true, false), devServer: compile(true, true), build: compile(false, false),
        patchedBrowser: compile(true, false, 'drop'), patchedServer: compile(true, true, 'drop'), keptBrowser: compile(true, false, 'keep'),
      }))`
    const env: NodeJS.ProcessEnv = { ...process.env, NEXT_RSPACK: 'true' }
    if (bundler === 'webpack') delete env.NEXT_RSPACK
    return JSON.parse(execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '-e', script], { cwd: process.cwd(), encoding: 'utf8', env })) as Record<'devBrowser' | 'devServer' | 'build' | 'patchedBrowser' | 'patchedServer' | 'keptBrowser', Compile>
  }

  test.each(['webpack', 'rspack'] as const)("Next still gives `next dev`'s compiles (%s) their source maps through a plugin of that class name, with devtool false; the patch drops it from the browser's alone, unless DOCS_DEV_SOURCE_MAPS=1", (bundler) => {
    const made = nextBase(bundler)
    // When this fails, Next has changed how it makes its development source maps: the browser's scripts may carry them again.
    for (const compile of [made.devBrowser, made.devServer]) {
      expect(compile.devtool).toBe(false)
      expect(compile.names).toContain(DEV_SOURCE_MAP_PLUGIN)
    }
    expect(made.build.names).not.toContain(DEV_SOURCE_MAP_PLUGIN)
    expect(made.patchedBrowser.names).not.toContain(DEV_SOURCE_MAP_PLUGIN)
    expect(made.patchedBrowser.names).toEqual(expect.arrayContaining(made.patchedBrowser.others))
    expect(made.patchedServer.names).toContain(DEV_SOURCE_MAP_PLUGIN)
    expect(made.keptBrowser.names).toContain(DEV_SOURCE_MAP_PLUGIN)
  })

  test('DOCS_DEV_SOURCE_MAPS is 1 to keep them, 0 or unset not to; anything else is named as an error', () => {
    expect(devSourceMaps({})).toBe(false)
    expect(devSourceMaps({ [DEV_SOURCE_MAPS_ENV]: '0' })).toBe(false)
    expect(devSourceMaps({ [DEV_SOURCE_MAPS_ENV]: '1' })).toBe(true)
    expect(() => devSourceMaps({ [DEV_SOURCE_MAPS_ENV]: 'yes' })).toThrow(/DOCS_DEV_SOURCE_MAPS must be 1 .* not "yes"/)
  })
})
