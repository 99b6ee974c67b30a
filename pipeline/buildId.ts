/**
 * The build ID, from the build's inputs instead of the clock.
 *
 * Next names `out/_next/static/<buildId>/` after it and writes it into every page, and the route
 * manifests and the edge bundle carry it too. Left to Next it is random, so every build changed
 * every HTML file and every file under that folder even when no page did, and a deploy uploaded
 * (and invalidated) the whole site. Derived from the inputs, two builds of the same sources give
 * the same files, byte for byte, and a deploy sends only what changed (docs/deploy.md, "Deploy
 * only what changed").
 *
 * The inputs are every file of the project the build may read (the project tree, less what is
 * installed, built, cached or only used by tests and tools, see SKIP), the environment that
 * changes the output (every `DOCS_*` and `NEXT_PUBLIC_*` variable: auth settings, site links,
 * access list overrides, the bundler) and the versions of Node and Next. When in doubt a file is
 * included: an extra input only costs an unneeded new ID, a missing one would give two different
 * sites the same ID, and a cache would serve one's files for the other's.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** The environment, as the build sees it. */
export type BuildEnv = Readonly<Record<string, string | undefined>>

/** Names skipped wherever they are: installed, built, cached or local state, never a build's input. */
const SKIP_NAMES = new Set(['node_modules', '.git', '.next', '.cache', '.swc', '.cognito', 'dist', 'cdk.out', 'test-results', 'playwright-report', '.artifacts', '.DS_Store'])

/**
 * The pages (content/) are data, not code: the one docs route renders each page's compiled
 * document, so no bundled file and nothing under `_next/static/<buildId>/` changes with a page.
 * Kept out of the ID, an edit changes its own page's HTML and data file (`_next/data/<buildId>/…`)
 * only, instead of the path of every page's data and every page's HTML.
 *
 * Top-level entries the build never reads: Next's output and generated typings, tests, browser
 * tests, benchmarks, the CDK app, the guides and CI settings. An edit there changes no file in out/.
 */
const SKIP_TOP = new Set(['out', 'next-env.d.ts', '__tests__', 'e2e', 'bench', 'infra', 'docs', '.ci', 'README.md', 'content'])


/** Set by the build for its own `next build` (pipeline/render/renderPlan.ts): which pages to render, not what they are. */
const SKIP_ENV = new Set(['DOCS_RENDER_ROUTES'])

/** The environment variables that change what the build writes. */
export function buildEnv(env: BuildEnv): [string, string][] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && /^(DOCS_|NEXT_PUBLIC_)/.test(entry[0]) && !SKIP_ENV.has(entry[0]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The files of the project under `root` that the build may read, as sorted paths relative to it. */
export function buildInputFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_NAMES.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue
      if (rel === '' && SKIP_TOP.has(entry.name)) continue
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relPath)
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(relPath)
    }
  }
  walk(root, '')
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export interface BuildIdInputs {
  root: string
  env: BuildEnv
  /** The versions the output depends on beyond the lockfile's: Node's and Next's. */
  versions: Record<string, string>
}

/** A hash of the build's inputs: the same sources, environment and versions give the same ID. */
export function buildIdFor({ root, env, versions }: BuildIdInputs): string {
  const hash = crypto.createHash('sha256')
  const field = (value: string | Buffer) => {
    hash.update(`${Buffer.byteLength(value)}:`)
    hash.update(value)
  }
  for (const file of buildInputFiles(root)) {
    field(file)
    const full = path.join(root, file)
    field(fs.lstatSync(full).isSymbolicLink() ? `symlink:${fs.readlinkSync(full)}` : fs.readFileSync(full))
  }
  for (const [name, value] of buildEnv(env)) field(`env:${name}=${value}`)
  for (const name of Object.keys(versions).sort()) field(`version:${name}=${versions[name]}`)
  // 20 hex digits (80 bits): short in every URL under _next/static/, and never the same by chance.
  return hash.digest('hex').slice(0, 20)
}

/** This build's ID, for next.config.ts's `generateBuildId`. */
export function siteBuildId(root: string = process.cwd(), env: BuildEnv = process.env): string {
  const nextVersion = (JSON.parse(fs.readFileSync(require.resolve('next/package.json', { paths: [root] }), 'utf8')) as { version: string }).version
  return buildIdFor({ root, env, versions: { node: process.version, next: nextVersion, platform: `${process.platform}-${process.arch}` } })
}
