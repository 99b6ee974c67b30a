/**
 * What a page's compiled output depends on besides its own bytes. A cache entry is keyed by this
 * fingerprint, so an upgrade of the compiler, a plugin or the highlighter, or an edit of the
 * options, never reads an entry another set of inputs wrote:
 *
 * - the installed version of every package Nextra's compiler loads: nextra and all of its
 *   dependencies, transitively (@mdx-js/mdx, micromark, the remark and rehype plugins, Shiki,
 *   rehype-pretty-code, twoslash…), and the sanitizer's allowlist (hast-util-sanitize), read from
 *   each package.json as installed;
 * - the bytes of the files that choose the options or run inside the compile: the worker (which
 *   holds the loader's call), the document maker, what a page may hold (the sanitizer and its
 *   character-reference decoder: a stricter rule must check every cached page again), the options
 *   file, the site's highlighter and the compile's patch (patches/compile/). The site's
 *   next.config.ts is not one: the compile reads none of it (the options live in
 *   ./nextraPageOptions.json), so an edit of it compiles nothing again;
 * - the mode: pages are compiled as `next build` compiles them, for production;
 * - the format of the entry's file (CACHE_ENTRY_FORMAT).
 */
import { keepUnder, keptUnder, settledAt, sha256, stampOf } from '../files'
import { NamedError } from '../content/contentError'
import { CACHE_PATHS } from '../steps/paths'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The project the compiler's code comes from: the worker, the highlighter, the options and
 * node_modules. It is the site's own project, also when a build runs this project's pipeline on
 * another site's folder (a test's small site).
 */
export const COMPILER_ROOT = path.resolve(__dirname, '../..')

/** Files of the compiler's project whose bytes change what a page compiles to. */
export const COMPILER_FILES = ['pipeline/compile/compileWorker.mjs', 'pipeline/compile/compilerBundle.mjs', 'pipeline/compile/toPageDocument.mjs', 'pipeline/compile/hiddenRanges.mjs', 'pipeline/compile/pageSanitizer.mjs', 'pipeline/compile/readerChecks.mjs', 'lib/plainText.mjs', 'pipeline/compile/sitePaths.mjs', 'pipeline/compile/characterReferences.cjs', 'lib/render/codeInPages.json', 'pipeline/compile/nextraPageOptions.json', 'pipeline/onDemandHighlighter.ts', 'patches/compile/visitWithoutNames.mjs', 'patches/replaceExactly.cjs', 'pipeline/compile/documentLinks.ts', 'pipeline/content/pageLinks.ts', 'pipeline/content/frontMatter.ts'] as const

/** The packages the compile starts from; their dependencies are followed from each one's own folder, as Node resolves them. */
const ROOT_PACKAGES = ['nextra', '@mdx-js/mdx', 'shiki', 'hast-util-sanitize'] as const

export class MissingCompilerPackageError extends NamedError {
  constructor(name: string, from: string) {
    super(`the MDX compile needs the package "${name}", which is not installed (looked up from ${from}); run npm ci`)
  }
}

/** The package.json Node would load for `name` from `dir`: its node_modules, then each parent's. */
function packageJsonOf(name: string, dir: string): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name, 'package.json')
    if (fs.existsSync(candidate)) return candidate
    if (path.dirname(current) === current) return null
  }
}

/** `name@version` of each package the compiler can load from `root`, sorted, with where it is installed. */
export function compilerPackages(root: string): string[] {
  const seen = new Map<string, string>()
  const queue: [string, string][] = ROOT_PACKAGES.map((name) => [name, root])
  while (queue.length > 0) {
    const [name, from] = queue.shift()!
    const file = packageJsonOf(name, from)
    if (!file) {
      if (ROOT_PACKAGES.includes(name as (typeof ROOT_PACKAGES)[number])) throw new MissingCompilerPackageError(name, from)
      continue // An optional dependency of another platform, never loaded here.
    }
    const real = fs.realpathSync(file)
    if (seen.has(real)) continue
    const json = JSON.parse(fs.readFileSync(real, 'utf8')) as { version?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
    seen.set(real, `${name}@${json.version ?? '?'} ${path.relative(root, path.dirname(file))}`)
    for (const dependency of Object.keys({ ...json.dependencies, ...json.optionalDependencies })) queue.push([dependency, path.dirname(real)])
  }
  return [...seen.values()].sort()
}

/** npm's record of what node_modules holds, which every install, update or removal rewrites. */
export const INSTALL_RECORD = 'node_modules/.package-lock.json'

/**
 * compilerPackages of `root`, kept under the stamp of its install record: walking some 400
 * packages' package.json is most of the fingerprint's time, and only an install changes them.
 * Without that record (not installed by npm), every call walks them.
 */
export function installedCompilerPackages(root: string): string[] {
  const stamp = stampOf(path.join(root, INSTALL_RECORD))
  if (!stamp) return compilerPackages(root)
  const file = path.join(root, CACHE_PATHS.compiler, 'packages.json')
  const key = JSON.stringify(stamp)
  const kept = keptUnder<string[]>(file, key)
  if (Array.isArray(kept)) return kept
  const readAt = Date.now()
  const packages = compilerPackages(root)
  if (settledAt(stamp, readAt)) keepUnder(file, key, packages)
  return packages
}

/**
 * The shape of a cache entry's file (./compilePages.ts writes it): raised with any change of it, so
 * that entries kept from before are compiled again rather than found damaged.
 */
const CACHE_ENTRY_FORMAT = 2

/** The fingerprint of everything but the page that a page's compiled output depends on. */
export function compilerFingerprint(): string {
  const hashOf = (file: string) => (fs.existsSync(file) ? sha256(fs.readFileSync(file)) : 'none')
  const files = COMPILER_FILES.map((file) => `${file} ${hashOf(path.join(COMPILER_ROOT, file))}`)
  return sha256(JSON.stringify({ mode: 'production', format: CACHE_ENTRY_FORMAT, packages: installedCompilerPackages(COMPILER_ROOT), files }))
}
