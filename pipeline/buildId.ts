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
 * The inputs are what `next build` reads, as an allowlist (INPUT_DIRS, INPUT_FILES), the
 * environment that changes the output (every `DOCS_*` and `NEXT_PUBLIC_*` variable) and the
 * versions of Node and Next. Nothing else: a stray file (a CI step's log beside package.json)
 * must not rewrite the whole site, and public/ is copied, not bundled, so an image changes only
 * itself (one added under a hidden section must not change every file every reader can fetch).
 * A missing input would give two different sites the same ID, and a cache would serve one's
 * files for the other's: a folder is listed when the bundle imports from it.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { RENDER_ROUTES_ENV } from '../lib/pathFormats'

/** The environment, as the build sees it. */
export type BuildEnv = Readonly<Record<string, string | undefined>>

/** Names skipped wherever they are: installed, built, cached or local state, never a build's input. */
const SKIP_NAMES = new Set(['node_modules', '.git', '.next', '.cache', '.swc', '.cognito', 'dist', 'cdk.out', 'test-results', 'playwright-report', '.artifacts', '.DS_Store'])

/**
 * The folders the bundles compile from: the routes (pages/) and everything they, next.config.ts and
 * the theme import (components/, lib/, styles/), the bundler's patches (patches/, loaded by path
 * from next.config.ts), and the build's own code (pipeline/: this file, which next.config.ts
 * imports, and the renderer that stands in for `next build`). app/ is Next's other router: absent,
 * but Next would compile it. Not inputs: content/ (pages are data: each changes its own HTML and
 * data file through its props, pipeline/render/renderPlan.ts), public/ (copied, not bundled), edge/
 * and mcp/ (their own bundles, not imported by the site's), scripts/, tests, guides, infra/.
 */
export const INPUT_DIRS = ['app', 'components', 'lib', 'pages', 'patches', 'pipeline', 'styles']

/**
 * The files at the project's root that the build reads: Next's config and the one it would read
 * instead, the theme, the access rules (next.config.ts imports them), TypeScript's settings, the
 * package and its lock file (every installed version), the `.env` files Next loads, and the
 * configs Next's compilers pick up by name when present (PostCSS, Tailwind, Babel, Browserslist),
 * and middleware and instrumentation files, which Next compiles when present.
 */
const INPUT_FILES = new Set(['next.config.ts', 'next.config.js', 'next.config.mjs', 'theme.config.tsx', 'theme.tsx', 'access.config.ts', 'tsconfig.json', 'jsconfig.json', 'package.json', 'package-lock.json', '.browserslistrc', 'browserslist'])
const INPUT_FILE_PATTERN = /^(\.env(\..+)?|(postcss|tailwind|babel)\.config\.[cm]?[jt]s|postcss\.config\.json|\.postcssrc(\.[a-z]+)?|\.babelrc(\.[a-z]+)?|(middleware|instrumentation)\.[jt]sx?)$/

/** Whether a name at the project's root is an input: an allowlisted folder or config file. */
export function isInputAtRoot(name: string): boolean {
  return INPUT_DIRS.includes(name) || INPUT_FILES.has(name) || INPUT_FILE_PATTERN.test(name)
}

/** Set by the build for its own `next build` (pipeline/render/renderPlan.ts): which pages to render, not what they are. */
const SKIP_ENV = new Set([RENDER_ROUTES_ENV])

/** The environment variables that change what the build writes. */
export function buildEnv(env: BuildEnv): [string, string][] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && /^(DOCS_|NEXT_PUBLIC_)/.test(entry[0]) && !SKIP_ENV.has(entry[0]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * The files of the project under `root` that the build reads, as sorted paths relative to it. A
 * symbolic link among them is refused, not followed: the bundler would read its target, which
 * the ID cannot see, and hashing only where it points would keep the ID when the target changes.
 */
export function buildInputFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_NAMES.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue
      if (rel === '' && !isInputAtRoot(entry.name)) continue
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.isSymbolicLink()) throw new Error(`build ID: ${relPath} is a symbolic link; the build reads what it points to, which the build ID cannot see. Replace it with the file or folder itself.`)
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relPath)
      else if (entry.isFile()) files.push(relPath)
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
    field(fs.readFileSync(full))
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
