/**
 * The navigation of one run: each audience's page map (what its pages' props carry) and each
 * audience's fragment (./pageMaps.ts), made when first asked for. Both follow from the page map,
 * the `_meta` data, the plan's audiences, the rules and the code alone, and from the text of the few
 * pages whose digests key a folder's order (./navigationOrder.ts). So a build keeps what it made in
 * .cache/, under a digest of those inputs and with those pages' digests, and the next build whose
 * inputs are the same (an edit of another page's text) takes the fragments and the maps' hashes
 * from there, instead of walking the whole page map once per audience. A map itself is made again
 * only for an audience whose pages' props are made again.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AggregatePlan } from '../lib/access/planAggregates'
import type { PageMapFragment } from '../lib/navigation/mergePageMaps'
import type { RawItem } from '../lib/navigation/shapePageMap'
import type { ContentSource } from './content/contentSource'
import { keepUnder, keptUnder, listFiles, sha256 } from './files'
import { audiencePageMap, pageMapFragments, type PageMapInputs } from './pageMaps'
import { builtRulesDigest } from './steps/audiencesFile'
import { CACHE_PATHS } from './steps/paths'

interface Kept {
  /** Each audience's page map's hash, by audience id. */
  maps: Record<string, string>
  fragments: [string, PageMapFragment][]
  /** The pages whose digests keyed the fragments' order (./navigationOrder.ts), with those digests. */
  secrets: [string, string][]
}

/** The project this module is part of: its code, not the site it builds. */
const CODE_ROOT = path.join(__dirname, '..')
let code: string | undefined

/** A digest of the build's own code (lib/ and pipeline/), read once per process: navigation made by other code is made again. */
export function navigationCode(): string {
  return (code ??= sha256(JSON.stringify(['lib', 'pipeline'].flatMap((dir) => listFiles(path.join(CODE_ROOT, dir)).filter((key) => /\.(ts|tsx|mjs|cjs|js)$/.test(key)).map((key) => [dir + key, sha256(fs.readFileSync(path.join(CODE_ROOT, dir, key)))])))))
}

export interface Navigation {
  /** The page map the pages of audience `id` are built with, and its hash. */
  audienceMap(id: string): RawItem[]
  audienceHash(id: string): string
  /** Each audience's fragment, by its rule; written to .cache/ for the next build when made here. */
  fragments(): Map<string, PageMapFragment>
}

/** The navigation of `raw` under `plan` and `inputs`, for the project at `root`, made by `code`. */
export function openNavigation(root: string, source: Pick<ContentSource, 'metas' | 'metaOf' | 'byRoute'>, raw: RawItem[], plan: AggregatePlan, inputs: PageMapInputs, code = navigationCode()): Navigation {
  const file = path.join(root, CACHE_PATHS.navigation)
  const metas = source.metas.map((meta) => [meta.folderRoute, source.metaOf(meta.folderRoute)])
  const digest = sha256(JSON.stringify([code, builtRulesDigest(inputs.access), inputs.sections, inputs.topMeta, metas, plan.audiences, raw]))
  const secretOf = (route: string) => source.byRoute(route)?.digest
  const found = keptUnder<Kept>(file, digest)
  const kept = found && Array.isArray(found.secrets) && found.secrets.every(([route, secret]) => secretOf(route) === secret) ? found : null
  const maps = new Map<string, { map: RawItem[]; hash: string }>()
  const audienceMap = (id: string) => {
    let made = maps.get(id)
    if (!made) {
      const map = audiencePageMap(raw, id, inputs, plan)
      maps.set(id, (made = { map, hash: sha256(JSON.stringify(map)) }))
    }
    return made
  }
  let fragments: Map<string, PageMapFragment> | null = kept ? new Map(kept.fragments) : null
  return {
    audienceMap: (id) => audienceMap(id).map,
    audienceHash: (id) => kept?.maps[id] ?? audienceMap(id).hash,
    fragments() {
      if (fragments) return fragments
      const secrets = new Map<string, string>()
      fragments = pageMapFragments(raw, plan, inputs, (route) => {
        const secret = secretOf(route)
        if (secret !== undefined) secrets.set(route, secret)
        return secret
      })
      const hashes = Object.fromEntries(plan.audiences.map((audience) => [audience.id, audienceMap(audience.id).hash]))
      keepUnder(file, digest, { maps: hashes, fragments: [...fragments], secrets: [...secrets] } satisfies Kept)
      return fragments
    },
  }
}
