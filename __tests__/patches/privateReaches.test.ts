/**
 * @jest-environment node
 *
 * What the project relies on that its dependencies do not publish (patches/privateReaches.ts):
 * each listed file is still installed, the reaches of the build that no patch test covers still
 * hold, and no file of the project reaches into a dependency without being listed, so the next
 * one is written down with its test, not found by an upgrade.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PRIVATE_REACHES } from '../../patches/privateReaches'

const root = path.resolve(__dirname, '../..')
const installed = (dependency: string) => path.join(root, 'node_modules', dependency)
const nextraDir = installed('nextra')

/** What a plain-ESM Node process prints for `script` (Nextra's server files are ES modules). */
const esm = (script: string) => execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })

test('each listed file of a dependency is installed, and each relying file and test exists', () => {
  const missing = PRIVATE_REACHES.flatMap((reach) => [
    ...reach.files.filter((file) => !fs.existsSync(path.join(installed(reach.dependency), file))).map((file) => `${reach.dependency}/${file}`),
    ...[...reach.by, reach.test].filter((file) => !fs.existsSync(path.join(root, file))),
  ])
  expect(missing).toEqual([])
})

describe("Nextra's files the build imports by path", () => {
  test("Nextra's loader still calls compileMdx with the options the worker copies from it", () => {
    const loader = fs.readFileSync(path.join(nextraDir, 'dist/server/loader.js'), 'utf8')
    const worker = fs.readFileSync(path.join(root, 'pipeline/compile/compileWorker.mjs'), 'utf8')
    expect(loader).toContain('import { twoslashRenderer } from "./rehype-plugins/twoslash.js";')
    expect(loader).toMatch(/compileMdx\(source, \{\n\s+mdxOptions: \{\n\s+\.\.\.mdxOptions,\n\s+jsx: true,\n\s+outputFormat: "program",\n\s+format: "detect",/)
    expect(loader).toMatch(/transformerTwoslash\(\{\n\s+renderer: twoslashRenderer\(\),\n\s+explicitTrigger: true\n\s+\}\)/)
    for (const option of ['jsx: true', "outputFormat: 'program'", "format: 'detect'", 'useCachedCompiler: true']) {
      expect(worker).toContain(option)
    }
    // The loader's twoslash transformer runs TypeScript on a page's code: the worker leaves it out (pageSanitizer.test.ts).
    expect(worker).not.toContain('transformerTwoslash')
  })

  test("Nextra's compile parses front matter with its own yaml, which the content source loads from Nextra's folder", () => {
    const frontMatterPlugin = fs.readFileSync(path.join(nextraDir, 'dist/server/remark-plugins/remark-mdx-frontmatter.js'), 'utf8')
    expect(frontMatterPlugin).toMatch(/import \{ parse as parseYaml \} from "yaml"/)
    const { createRequire } = require('node:module') as typeof import('node:module')
    const fromNextra = createRequire(require.resolve('nextra/package.json'))
    expect(fs.existsSync(fromNextra.resolve('yaml/package.json'))).toBe(true)
  })
})

describe('the list is complete', () => {
  /** Folders and files of the project whose code may reach into a dependency (tests may, freely). */
  const SOURCES = ['pipeline', 'patches', 'lib', 'pages', 'components', 'edge', 'mcp', 'scripts', 'bench', 'next.config.ts', 'theme.tsx', 'theme.config.tsx']

  function sourceFiles(): string[] {
    return SOURCES.flatMap((entry) =>
      fs.statSync(path.join(root, entry)).isFile()
        ? [entry]
        : (fs.readdirSync(path.join(root, entry), { recursive: true, encoding: 'utf8' }) as string[])
            .filter((file) => /\.(tsx?|mjs|cjs|js)$/.test(file) && !/(^|\/)(dist|node_modules)\//.test(file))
            .map((file) => path.posix.join(entry, file.split(path.sep).join('/')))
    )
  }

  const manifestOf = (dependency: string) => JSON.parse(fs.readFileSync(path.join(installed(dependency), 'package.json'), 'utf8')) as { bin?: string | Record<string, string>; exports?: unknown }

  /** A package's `bin` files, which it publishes to be run by path. */
  const binFiles = (dependency: string) => {
    const { bin } = manifestOf(dependency)
    return (typeof bin === 'string' ? [bin] : Object.values(bin ?? {})).map((file) => path.posix.normalize(file))
  }

  /** Whether a package's `exports` names `file` (relative to its folder) itself, not by a pattern: then it publishes that file. */
  const exportsExactly = (dependency: string, file: string) => {
    const { exports } = manifestOf(dependency)
    return exports !== null && typeof exports === 'object' && `./${path.posix.normalize(file)}` in exports
  }

  const PACKAGE = String.raw`((?:@[\w.-]+/)?[\w][\w.-]*)`
  /** Ways of naming a dependency's private files: a path into its dist/ or node_modules/ folder, a bundler rule's pattern for one, or a file found from its package's folder. */
  const REACHES = [
    new RegExp(String.raw`['"\`](?:[^'"\`\s]*node_modules/)${PACKAGE}/([^'"\`\s]+)['"\`]`, 'g'),
    new RegExp(String.raw`['"\`]${PACKAGE}/(dist/[^'"\`\s]*)['"\`]`, 'g'),
    /(?:node_modules\[\\\\\/\])?((?:@[\w-]+\[\\\\\/\])?[\w-]+)\[\\\\\/\](dist|es)\[\\\\\/\]/g,
    /node_modules\[\\\\\/\]((?:@[\w-]+\[\\\\\/\])?[\w-]+)\[\\\\\/\]()/g,
    /(?:path\.(?:join|dirname)\(|createRequire\()[^\n]*require\.resolve\('((?:@[\w.-]+\/)?[\w.-]+)\/package\.json'\)()/g,
    /import\.meta\.resolve\('((?:@[\w.-]+\/)?[\w.-]+)(?:\/([^']*))?'\)/g,
  ]

  /** `file: dependency` for each reach into an installed dependency that `file` makes. */
  function reachesIn(file: string): string[] {
    const source = fs.readFileSync(path.join(root, file), 'utf8')
    const found = new Set<string>()
    for (const pattern of REACHES) {
      for (const match of source.matchAll(pattern)) {
        const dependency = match[1].replace(/\[\\\\\/\]/g, '/')
        if (!fs.existsSync(path.join(installed(dependency), 'package.json'))) continue
        if (match[2] && binFiles(dependency).includes(path.posix.normalize(match[2]))) continue
        if (match[2] && exportsExactly(dependency, match[2])) continue
        found.add(`${file}: ${dependency}`)
      }
    }
    return [...found]
  }

  test('every file that reaches into a dependency is listed, with that dependency', () => {
    const listed = new Set(PRIVATE_REACHES.flatMap((reach) => reach.by.map((file) => `${file}: ${reach.dependency}`)))
    const found = sourceFiles().flatMap(reachesIn)
    // The scan finds the reaches the brief of this list started from.
    // (The compile worker's was Nextra's twoslash renderer, by path: the worker has no twoslash since pages may not run it.)
    expect(found).toEqual(expect.arrayContaining(['pipeline/content/frontMatter.ts: nextra', 'patches/signIn/lazyAuthenticatorScreens.cjs: @aws-amplify/ui-react', 'pipeline/render/renderWithNext.cjs: next']))
    expect(found.filter((reach) => !listed.has(reach))).toEqual([])
  })

  test('no listed reach into a file is stale: the scan still finds it in one of the files said to rely on it', () => {
    const found = new Set(PRIVATE_REACHES.flatMap((reach) => reach.by).flatMap(reachesIn))
    const stale = PRIVATE_REACHES.filter((reach) => reach.files.length > 0 && !reach.by.some((file) => found.has(`${file}: ${reach.dependency}`)))
    expect(stale.map((reach) => `${reach.dependency}/${reach.files.join(', ')}`)).toEqual([])
  })

  test('the scan sees a reach however it is written, and lets a published bin file, or a file a package exports by name, be', () => {
    const file = path.join(root, 'patches', `.reach-${process.pid}.ts`)
    const relative = path.relative(root, file)
    try {
      fs.writeFileSync(file, "require('nextra/dist/server/x.js')\nconst r = /nextra-theme-docs[\\\\/]dist[\\\\/]index\\.js$/\nspawn('node_modules/next/dist/bin/next')\nimport.meta.resolve('shiki/onig.wasm')\n")
      expect(reachesIn(relative).sort()).toEqual([`${relative}: nextra`, `${relative}: nextra-theme-docs`])
      // Shiki exports ./onig.wasm by name, and ./dist/* only by a pattern: a file under dist/ is a reach.
      fs.writeFileSync(file, "import.meta.resolve('shiki/dist/onig.wasm')\n")
      expect(reachesIn(relative)).toEqual([`${relative}: shiki`])
    } finally {
      fs.rmSync(file, { force: true })
    }
  })
})
