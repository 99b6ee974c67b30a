/**
 * Nextra's compiler as one ES module, with the compile's patch (patches/compile/visitWithoutNames.mjs)
 * applied to the tree walker as it is bundled. Loaded as its 577 files, through a module hook that
 * patched one of them, it took a compile worker 0.55 s; as one file, 0.12 s (docs/benchmarks.md).
 * A rebuild's one page waits for that load.
 *
 * Made once per compiler, by the first worker that finds it missing: the pool names it by the
 * compiler's fingerprint (./fingerprint.ts, which lists this file), under .cache/compiler/. Shiki
 * stays outside: the site's highlighter loads it, and each grammar, on demand
 * (pipeline/onDemandHighlighter.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { threadId } from 'node:worker_threads'
import { WALKER_FILE, withoutNames } from '../../patches/compile/visitWithoutNames.mjs'

/** Left to Node: Shiki (loaded on demand by the highlighter), and the twoslash renderer the worker never gives the compile. */
const EXTERNAL = ['shiki', '@shikijs/*', 'typescript', 'twoslash', 'esbuild']

/** The bundle's file names: `nextra-compile-<key>.mjs`. */
const BUNDLE_PREFIX = 'nextra-compile-'

/**
 * Bundles `entry` (module text, its imports resolved from `resolveDir`) into `outfile`, with every
 * copy of the tree walker patched; fails when none was (the patch would not have applied).
 */
export async function bundle(entry, outfile, resolveDir) {
  const esbuild = await import('esbuild')
  let patched = 0
  await esbuild.build({
    stdin: { contents: entry, resolveDir, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: EXTERNAL,
    // The CommonJS packages inside call `require` for Node's modules.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
    plugins: [
      {
        name: 'visit-without-names',
        setup(build) {
          build.onLoad({ filter: WALKER_FILE }, (args) => {
            patched++
            return { contents: withoutNames(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }
          })
        },
      },
    ],
  })
  if (patched === 0) throw new Error('compile bundle: patches/compile/visitWithoutNames.mjs found no unist-util-visit-parents/lib/index.js to patch; the compiler loads its walker from elsewhere')
}

/**
 * The compiler's module in `dir` under `key` (the compiler's fingerprint), made first if missing,
 * from the project at `root`; the bundles of other keys are removed then.
 */
export async function loadCompiler(dir, key, root) {
  const file = path.join(dir, `${BUNDLE_PREFIX}${key}.mjs`)
  if (!existsSync(file)) await make(file, root)
  try {
    const loaded = await import(pathToFileURL(file).href)
    if (typeof loaded.compileMdx !== 'function') throw new Error(`${file} has no compileMdx`)
    return loaded
  } catch {
    // A bundle that does not load or lacks the compiler (damaged on disk) is made again, once; a new one that fails says why.
    await make(file, root)
    return import(`${pathToFileURL(file).href}?made=${Date.now()}`)
  }
}

async function make(file, root) {
  mkdirSync(path.dirname(file), { recursive: true })
  // Two workers may make it at once: each writes its own file and renames it into place.
  const partial = `${file}.${process.pid}-${threadId}.partial`
  await bundle("export { compileMdx } from 'nextra/compile'", partial, root)
  renameSync(partial, file)
  for (const name of readdirSync(path.dirname(file))) {
    if (name.startsWith(BUNDLE_PREFIX) && name.endsWith('.mjs') && name !== path.basename(file)) rmSync(path.join(path.dirname(file), name), { force: true })
  }
}
