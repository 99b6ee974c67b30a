/**
 * `npm run build`: the build's own modules (./buildSite.ts and every project file it imports) run
 * as one CommonJS file, which esbuild makes again only when one of those files changed. Loaded one
 * by one through tsx, they held the build's thread about 0.2 s before it could post a changed page
 * to its compile worker, the start of a rebuild's longest path (docs/benchmarks.md).
 *
 * The file is kept under a digest of its inputs' bytes (and of esbuild's version and this file),
 * with the list of those inputs beside it: a later run hashes the listed files and runs the file
 * of that digest if there is one. A new import changes the file that makes it, so the digest.
 * Packages stay in node_modules, loaded as tsx would load them.
 */
'use strict'
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '../..')
const ENTRY = 'pipeline/steps/buildSite.ts'
/** Where the bundles are kept (./paths.ts names it as CACHE_PATHS.buildBundle). */
const BUNDLE_DIR = '.cache/build'
const INPUTS_FILE = 'inputs.json'

/** The digest of `inputs` (paths from the project's root) with the bytes `read` gives; null when one is gone. */
function digestOf(inputs, read = (input) => fs.readFileSync(path.join(ROOT, input))) {
  const hash = crypto.createHash('sha256')
  hash.update(`${require('esbuild/package.json').version}\0`)
  hash.update(fs.readFileSync(__filename))
  for (const input of inputs) {
    let bytes
    try {
      bytes = read(input)
    } catch {
      return null
    }
    hash.update(`\0${input}\0`)
    hash.update(bytes)
  }
  return hash.digest('hex').slice(0, 20)
}

/** How esbuild reads each kind of the project's files. */
const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.cjs': 'js', '.mjs': 'js', '.js': 'js', '.json': 'json' }

/**
 * Reads each of the project's files for esbuild, keeping the bytes in `read`: the bundle is kept
 * under the digest of what it was made from, not of the files as a later read finds them (one saved
 * meanwhile would otherwise pass for bundled). A module that names its own file or folder keeps its
 * path: bundled, `__dirname` would be the bundle's folder; it is made from the root the bundle runs in.
 */
const projectFiles = (read) => ({
  name: 'project-files',
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|cjs|mjs|js|json)$/ }, (args) => {
      if (args.path.split(path.sep).includes('node_modules')) return undefined
      const bytes = fs.readFileSync(args.path)
      const file = path.relative(ROOT, args.path).split(path.sep).join('/')
      read.set(file, bytes)
      const text = bytes.toString('utf8')
      const loader = LOADERS[path.extname(args.path)]
      const preamble = loader !== 'json' && /\b__(dirname|filename)\b/.test(text)
        ? `var __filename = require("node:path").join(globalThis.__docsBuildRoot, ${JSON.stringify(file)}), __dirname = require("node:path").dirname(__filename);\n`
        : ''
      return { contents: preamble + text, loader }
    })
  },
})

/** Makes the bundle, keeps it under its digest (replacing older ones), and returns its file. */
async function bundle(dir) {
  const esbuild = require('esbuild')
  // tsconfig.json chooses how the TypeScript is compiled, so it is an input too, read before esbuild reads it.
  const read = new Map([['tsconfig.json', fs.readFileSync(path.join(ROOT, 'tsconfig.json'))]])
  const result = await esbuild
    .build({ entryPoints: [ENTRY], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', keepNames: true, write: false, metafile: true, logLevel: 'silent', plugins: [projectFiles(read)] })
    .catch((error) => {
      const messages = error && Array.isArray(error.errors) ? esbuild.formatMessagesSync(error.errors, { kind: 'error', color: false }).join('\n') : String(error)
      throw new Error(`a file the build runs does not compile (access.config.ts is one):\n${messages}`)
    })
  // A key written twice (a list in access.config.ts) compiles, and the last silently wins; the type-check that refuses it is not the build's.
  const twice = result.warnings.filter((warning) => warning.id === 'duplicate-object-key')
  if (twice.length > 0) throw new Error(`a file the build runs writes a key twice, and only the last would count:\n${esbuild.formatMessagesSync(twice, { kind: 'error', color: false }).join('\n')}`)
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/')), 'tsconfig.json'].sort()
  const unread = inputs.filter((input) => !read.has(input))
  if (unread.length > 0) throw new Error(`the build imports ${unread.join(', ')}, a kind of file its bundle does not read`)
  const digest = digestOf(inputs, (input) => read.get(input))
  const file = path.join(dir, `${digest}.cjs`)
  fs.mkdirSync(dir, { recursive: true })
  // Another build of this project making the same bundle meanwhile keeps its own.
  for (const old of fs.readdirSync(dir)) if (old.endsWith('.cjs') && old !== path.basename(file)) fs.rmSync(path.join(dir, old), { force: true })
  replaceFile(file, result.outputFiles[0].contents)
  replaceFile(path.join(dir, INPUTS_FILE), JSON.stringify(inputs))
  return file
}

/** Writes `file` whole or not at all: a build stopped meanwhile leaves the one before. */
function replaceFile(file, data) {
  const partial = `${file}.${process.pid}.partial`
  fs.writeFileSync(partial, data)
  fs.renameSync(partial, file)
}

/** The build's entry as its files are now: from the kept bundle when its inputs are unchanged. */
async function loadBuild() {
  const dir = path.join(ROOT, BUNDLE_DIR)
  let inputs = null
  try {
    inputs = JSON.parse(fs.readFileSync(path.join(dir, INPUTS_FILE), 'utf8'))
  } catch {
    // None yet, or unreadable: made again.
  }
  const digest = Array.isArray(inputs) ? digestOf(inputs) : null
  const kept = digest && path.join(dir, `${digest}.cjs`)
  globalThis.__docsBuildRoot = ROOT
  if (kept && fs.existsSync(kept)) {
    try {
      return require(kept)
    } catch {
      // A kept bundle that does not load (damaged on disk) is made again, once.
      delete require.cache[kept]
    }
  }
  return require(await bundle(dir))
}

if (require.main === module) {
  // `npm run build` stopped with SIGTERM ends npm, not this process: it then ends too, as a stopped build.
  require('../../scripts/endWithParent.cjs').endWithParent()
  require('../../scripts/envFileSettings.cjs').refuseDocsSettingsInEnvFiles(ROOT, 'build')
  loadBuild()
    .then((build) => build.runBuild())
    .catch((error) => {
      console.error(`build: ${error instanceof Error ? error.message : error}`)
      process.exit(1)
    })
}

module.exports = { BUNDLE_DIR }
