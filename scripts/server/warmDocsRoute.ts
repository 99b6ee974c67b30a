/**
 * Has Next's dev server compile the docs route before `npm run dev` says it is ready: Next compiles
 * a route, and lists its paths (`getStaticPaths`), on the route's first request, which would
 * otherwise be the writer's first page. It asks, as a browser would, for the home page and for one
 * docs page of the pages' props (both are pages/[[...slug]].tsx, but a docs page is what a writer
 * opens, and its render reads what the home page's does not).
 */
import fs from 'node:fs'
import path from 'node:path'
import { PROPS_INDEX, type PropsIndex } from '../../lib/render/propsFiles'

/** Next may take this long to listen and compile the route on a cold, busy machine. */
const WARM_TIMEOUT_MS = 180_000

export class WarmRouteError extends Error {
  name = 'WarmRouteError'
}

/** The routes to ask for: the home page, and the first docs page of the props index when there is one. */
export function routesToWarm(root: string): string[] {
  const file = path.join(root, PROPS_INDEX)
  if (!fs.existsSync(file)) return ['/']
  const index = JSON.parse(fs.readFileSync(file, 'utf8')) as PropsIndex
  const docsPage = Object.keys(index).find((route) => /^\/docs\/[^/]+\/./.test(route)) ?? Object.keys(index).find((route) => route !== '/')
  return docsPage ? ['/', docsPage] : ['/']
}

/**
 * Asks `site` for each route in turn, waiting for Next to listen; resolves once each has answered
 * with a page (any status but a server error). Thrown when Next does not answer in time.
 */
export async function warmDocsRoute(site: string, routes: string[]): Promise<void> {
  const deadline = Date.now() + WARM_TIMEOUT_MS
  for (const route of routes) {
    for (;;) {
      try {
        const response = await fetch(site + route, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })
        await response.arrayBuffer()
        if (response.status < 500) break
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new WarmRouteError(`Next did not serve ${route} within ${WARM_TIMEOUT_MS / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}
