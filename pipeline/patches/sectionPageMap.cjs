// Webpack loaders that give each audience's pages (the pages one access rule governs) their own
// page map (see pipeline/pageMaps.ts and lib/navigation/scopePageMap.ts).
//
// As a page loader (runs after nextra/loader): rewrites the page's import of Nextra's one global
// page map to `nextra-page-map-.mjs?scope=<audience id>`.
// As a page-map loader (for `?scope=`): regenerates the page map with Nextra's own collector,
// shaped and scoped, and drops the imports of `_meta` files that the scope no longer uses.
const fs = require('fs')
const path = require('path')
const { pathToFileURL } = require('url')
const { pagePathOf } = require('./pagePath.cjs')

const PAGE_MAP_IMPORT = /(import \{ pageMap \} from ')([^']*nextra-page-map-[^']*\.mjs)(')/
// The page options Nextra's loader inlines: `{"filePath":"…",…,"timestamp":…` (JSON, unclosed).
const PAGE_OPTS = /\{"filePath":("(?:[^"\\]|\\.)*")/
const NEXTRA_TIMESTAMP = /,"timestamp":\d+/

/**
 * Puts the build's own last-updated date (pipeline/lastUpdated.ts) into the page's options, in place
 * of the one Nextra looks up itself; no date when the build has none for the file.
 */
function withTimestamp(source, timestampFor) {
  const opts = PAGE_OPTS.exec(source)
  if (!opts) return null
  const timestamp = timestampFor(JSON.parse(opts[1]))
  const start = opts.index
  const end = source.indexOf('},pageMap', start)
  const json = source.slice(start, end).replace(NEXTRA_TIMESTAMP, '')
  const dated = typeof timestamp === 'number' ? json.replace(PAGE_OPTS, `$&,"timestamp":${timestamp}`) : json
  return source.slice(0, start) + dated + source.slice(end)
}

function scopeOfResource(resourcePath, pagesDir, routeToScope) {
  const relative = path.relative(pagesDir, resourcePath).split(path.sep).join('/')
  const route = '/' + relative.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '')
  return routeToScope(route === '/' ? '/' : route.replace(/\/$/, ''))
}

/**
 * Every file a page map is made from (pages, `_meta` files), through symlinks: a persistent cache
 * must rebuild the page map when a page is added, removed or retitled, not only when the page
 * itself changes.
 */
function pageMapSources(dir) {
  const files = []
  const folders = [dir]
  while (folders.length) {
    const folder = folders.pop()
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name)
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && fs.statSync(full).isDirectory())
      if (isDir) folders.push(full)
      else if (/\.(mdx?|[jt]sx?)$/.test(entry.name)) files.push(fs.realpathSync(full))
    }
  }
  return files
}

function dropUnusedImports(code) {
  const lines = code.split('\n')
  const imports = lines.filter((line) => /^import \w+ from /.test(line))
  const body = lines.filter((line) => !/^import \w+ from /.test(line)).join('\n')
  const used = imports.filter((line) => new RegExp(`\\b${line.split(' ')[1]}\\b`).test(body))
  return [...used, body].join('\n')
}

module.exports = function sectionPageMapLoader(source) {
  const options = this.getOptions()
  if (this.resourceQuery.startsWith('?scope=')) {
    const callback = this.async()
    const scope = this.resourceQuery.slice('?scope='.length)
    for (const file of pageMapSources(options.pagesDir)) this.addDependency(file)
    const pageMapModule = path.join(path.dirname(require.resolve('nextra/package.json')), 'dist/server/page-map.js')
    import(pathToFileURL(pageMapModule).href)
      .then(({ collectPageMap }) =>
        collectPageMap({
          dir: options.pagesDir,
          route: '/',
          locale: '',
          transformPageMap: (pageMap) => options.transform(pageMap, scope === 'none' ? null : scope),
        })
      )
      .then((code) => callback(null, dropUnusedImports(code)), callback)
    return
  }
  // Like nextra/loader: the path as resolved (through the pages/docs symlink), not the real path.
  const pagePath = pagePathOf(this)
  const scope = scopeOfResource(pagePath, options.pagesDir, options.routeToScope) ?? 'none'
  if (!PAGE_MAP_IMPORT.test(source)) {
    this.emitError(new Error(`sectionPageMapLoader: no page-map import found in ${this.resourcePath}; Nextra's loader output changed`))
    return source
  }
  const scoped = source.replace(PAGE_MAP_IMPORT, `$1$2?scope=${scope}$3`)
  const dated = withTimestamp(scoped, options.timestampFor)
  if (dated === null) {
    this.emitError(new Error(`sectionPageMapLoader: no page options found in ${this.resourcePath}; Nextra's loader output changed`))
    return scoped
  }
  return dated
}

module.exports.withTimestamp = withTimestamp
