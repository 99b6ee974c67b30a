// Nextra's page loader asks git for each page's last commit, one lookup per page
// (`repository.getFileLatestModifiedDateAsync` of @napi-rs/simple-git in nextra/dist/server/loader.js),
// and each lookup walks the history back from HEAD until it finds the file. The build already has
// every date from one `git log` (pipeline/lastUpdated.ts) and puts it into the page's options in
// place of Nextra's (sectionPageMap.cjs), so those lookups are work thrown away, and they grow
// with pages times history: 0.4 s for this repository's 101 pages, but 68 s for 200 pages last
// changed 2,000 commits ago (the one `git log` takes 0.3 s there). The lookup now answers "no
// date" at once, and Nextra leaves the date to the build.
//
// It replaces the method on the shared Repository class, which Nextra's `import()` of the
// package gets too (Node hands ES imports of a CommonJS package the same exports object).
const { Repository } = require('@napi-rs/simple-git')

const LOOKUP = 'getFileLatestModifiedDateAsync'
const NO_DATE = async function noPageGitLookup() {
  return undefined
}

function skipPageGitLookups() {
  if (typeof Repository.prototype[LOOKUP] !== 'function') {
    throw new Error(`pipeline/patches/noPageGitLookups.cjs: @napi-rs/simple-git's Repository has no ${LOOKUP} any more; check how Nextra's loader dates pages now`)
  }
  Repository.prototype[LOOKUP] = NO_DATE
}

module.exports = { skipPageGitLookups, LOOKUP, NEXTRA_LOADER_FILE: 'nextra/dist/server/loader.js' }
