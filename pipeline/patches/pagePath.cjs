// Nextra's loader finds a page's path from `this._module.resourceResolveData` (descriptionFileRoot +
// relativePath), so that a page reached through a symlink (pages/docs -> content/docs) keeps its
// route. Rspack hands loaders a resolve result without those two fields, and Nextra's
// `path.join(undefined, undefined)` fails every page.
//
// Rspack's resource path is the file's real path (content/docs/…). This wrapper turns it back into
// the path through the pages folder's symlinks and hands Nextra that, through Nextra's own
// fallback (`this.resourcePath` when there is no resolve data). Turning symlink resolution off
// instead would also keep the path, but then a project whose node_modules is itself a symlink
// (a build copy, pnpm) bundles two copies of React.
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const nextraLoader = require('nextra/loader')

/** [real directory, its path through the pages folder] for each symlinked folder below `pagesDir`. */
const linksCache = new Map()
function pageLinks(pagesDir) {
  if (!linksCache.has(pagesDir)) {
    const links = []
    const walk = (dir) => {
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const full = path.join(dir, entry.name)
        if (entry.isSymbolicLink() && fs.statSync(full).isDirectory()) links.push([fs.realpathSync(full), full])
        else if (entry.isDirectory()) walk(full)
      }
    }
    walk(pagesDir)
    linksCache.set(pagesDir, links)
  }
  return linksCache.get(pagesDir)
}

/** `file` as reached through the pages folder, when it lies in a folder the pages folder links to. */
function throughPagesFolder(file, pagesDir) {
  for (const [real, linked] of pageLinks(pagesDir)) {
    if (file === real || file.startsWith(real + path.sep)) return linked + file.slice(real.length)
  }
  return file
}

function hasResolvedPath(module) {
  const data = module && module.resourceResolveData
  return !!data && typeof data.descriptionFileRoot === 'string' && typeof data.relativePath === 'string'
}

/** A page's path as Nextra computes it: through the pages folder's symlinks, from either bundler. */
function pagePathOf(loaderContext) {
  const data = loaderContext._module && loaderContext._module.resourceResolveData
  if (hasResolvedPath(loaderContext._module)) return path.join(data.descriptionFileRoot, data.relativePath)
  return throughPagesFolder(loaderContext.resourcePath, path.join(loaderContext.rootContext || process.cwd(), 'pages'))
}

/** A view of `target` where the `overrides` keys read as given; methods stay bound to the real object. */
function withOverrides(target, overrides) {
  return new Proxy(target, {
    get(object, key) {
      if (Object.prototype.hasOwnProperty.call(overrides, key)) return overrides[key]
      const value = object[key]
      return typeof value === 'function' ? value.bind(object) : value
    },
  })
}

/**
 * Next compiles every page twice, for the server and for the browser, and Nextra's loader turns the
 * same MDX into the same module both times. The second compile of a page reuses the first's
 * result, with the search data Nextra leaves on the module. Keyed by everything the result
 * depends on: path, source and options.
 *
 * In one process the results are kept in memory. A large site compiles in Next's build workers,
 * one process per compile; there the build (pipeline/steps/buildSite.ts) names a folder private to
 * this one build in DOCS_PAGE_COMPILE_DIR, and the browser's compile reads what the server's wrote.
 */
const compiled = new Map()
const MEMO_LIMIT = 5000
const SHARED_DIR = process.env.DOCS_PAGE_COMPILE_DIR

function sharedFile(key) {
  return SHARED_DIR && path.join(SHARED_DIR, crypto.createHash('sha256').update(key).digest('hex') + '.json')
}
function readShared(key) {
  const file = sharedFile(key)
  if (!file || !fs.existsSync(file)) return null
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}
function writeShared(key, result) {
  const file = sharedFile(key)
  if (!file) return
  // Written whole, then renamed: a reader never sees half a file.
  const partial = `${file}.${process.pid}.partial`
  fs.writeFileSync(partial, JSON.stringify(result))
  fs.renameSync(partial, file)
}

module.exports = function pagePathLoader(code) {
  if (!this._module || hasResolvedPath(this._module)) return nextraLoader.call(this, code)
  const key = JSON.stringify([this.resourcePath, this.resourceQuery, code, this.getOptions()])
  const callback = this.async()
  const buildInfo = this._module.buildInfo
  let result = compiled.get(key)
  const shared = result ? null : readShared(key)
  if (shared) result = Promise.resolve(shared)
  if (!result) {
    result = new Promise((resolve, reject) => {
      const module = withOverrides(this._module, { resourceResolveData: undefined })
      const context = withOverrides(this, {
        _module: module,
        resourcePath: pagePathOf(this),
        async: () => (error, output) => (error ? reject(error) : resolve({ output, nextraSearch: buildInfo && buildInfo.nextraSearch })),
      })
      nextraLoader.call(context, code)
    }).then((done) => {
      writeShared(key, done)
      return done
    })
    // With a shared folder each process compiles a page once and the folder is the memory; holding
    // every page in memory too cost a large site's build hundreds of megabytes.
    if (!SHARED_DIR) {
      if (compiled.size >= MEMO_LIMIT) compiled.clear()
      compiled.set(key, result)
      // A failed compile is not remembered: the error shows once per compile, as without the memo.
      result.catch(() => compiled.delete(key))
    }
  }
  result.then(({ output, nextraSearch }) => {
    if (nextraSearch && buildInfo) buildInfo.nextraSearch = nextraSearch
    callback(null, output)
  }, callback)
}
module.exports.pagePathOf = pagePathOf
