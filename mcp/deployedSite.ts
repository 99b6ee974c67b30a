/**
 * The site's files and search as the bucket's current deploy holds them, for the AI tools' server
 * on AWS (mcp/lambda.ts). A warm instance keeps the objects it read (./siteFiles.ts memoSiteFiles)
 * and its search sessions (./searchDocs.ts). A deploy that changes only pages keeps this function
 * as it was (its bundle is the same, pipeline/steps/bakedBundle.ts), so what an instance keeps could
 * outlive the files: a page moved to a narrower section, or deleted, would still be read and found
 * at its old route. So a request first asks, at most every DEPLOY_CHECK_MS, which deploy the bucket
 * holds (the seal's ETag, scripts/deploy/deploySeal.ts, which a deploy deletes as it starts writing
 * and writes when it ends); another than the one the kept objects were read under starts both
 * afresh. Search sessions opened under the last deploy are let go; their Pagefind modules' memory
 * is not given back (./searchDocs.ts), so each deploy costs a warm instance one session per set of
 * indexes its readers search again, until Lambda replaces the instance.
 */
import { searchIndexes, type SearchIndexes } from './searchDocs'
import { memoSiteFiles, type SiteFiles } from './siteFiles'

/** The site's store, and what names the deploy it holds (null: none, or one under way). */
export interface DeployedFiles extends SiteFiles {
  deploy(): Promise<string | null>
}

/** How stale a warm instance's files may be after a deploy ends: the bound on a moved page's old text. */
export const DEPLOY_CHECK_MS = 5_000

export interface DeployedSite {
  files: SiteFiles
  search: SearchIndexes
  /** Settles once the kept files and sessions are the current deploy's (asked at most every DEPLOY_CHECK_MS). */
  current(): Promise<void>
}

/** `searchOf` makes the search over a deploy's files (a test's stand-in for Pagefind). */
export function deployedSite(store: DeployedFiles, options: { checkEveryMs?: number; now?: () => number; searchOf?: (files: SiteFiles) => SearchIndexes } = {}): DeployedSite {
  const { checkEveryMs = DEPLOY_CHECK_MS, now = Date.now, searchOf = searchIndexes } = options
  // Each deploy's files and sessions together: a session reads its index's files under the deploy it opened under.
  const fresh = () => {
    const files = memoSiteFiles(store)
    return { files, search: searchOf(files) }
  }
  let site = fresh()
  let deploy: string | null | undefined
  let askedAt = -Infinity
  let asking: Promise<void> | null = null
  const current = () => {
    if (now() - askedAt < checkEveryMs) return Promise.resolve()
    return (asking ??= store
      .deploy()
      .then((named) => {
        askedAt = now()
        if (deploy !== undefined && named !== deploy) site = fresh()
        deploy = named
      })
      .finally(() => {
        asking = null
      }))
  }
  return {
    files: { read: (key) => site.files.read(key) },
    search: { search: (basePaths, query, limit) => site.search.search(basePaths, query, limit) },
    current,
  }
}
