/**
 * `npm run dev` only: where an open docs page hears that the pages' props were written again, or
 * that the content check found problems (scripts/server/propsEvents.ts, to which next.config.ts
 * rewrites this path in dev), and what each event says. Not served by a build.
 */
export const DEV_PROPS_EVENTS_PATH = '/_dev/props-events'

/** Above this many routes, an event names none: every open page refreshes (new access rules, a title every sidebar shows). */
const ROUTES_NAMED_AT_MOST = 500

/**
 * A route as the events name it: its 32-bit FNV-1a hash, so that the stream names no page. Two
 * routes with one token only make a page refresh, or ask for problems, when it need not.
 */
export function routeToken(route: string): string {
  let hash = 0x811c9dc5
  for (let at = 0; at < route.length; at++) hash = Math.imul(hash ^ route.charCodeAt(at), 0x01000193)
  return (hash >>> 0).toString(16)
}

/**
 * An event's data: the time of the write (ms since the epoch), then the tokens of the routes whose
 * props it wrote; the time alone when every page is to refresh (`routes` undefined, or many).
 */
export function propsEvent(written: number, routes?: readonly string[]): string {
  return routes === undefined || routes.length > ROUTES_NAMED_AT_MOST ? String(written) : [written, ...routes.map(routeToken)].join(' ')
}

/**
 * The time of the write an open page at `route`, showing props read at `shown`, fetches its props
 * again for; null when the event is not for it (older than its props, or of other pages only).
 */
export function refreshFor(data: string, route: string, shown: number): number | null {
  const [time, ...tokens] = data.split(' ')
  const written = Number(time)
  if (!(written > shown)) return null
  return tokens.length === 0 || tokens.includes(routeToken(route)) ? written : null
}

/** The stream's event name for the content check's problems (its data: problemsEvent). */
export const PROBLEMS_EVENT = 'problems'

/**
 * The query that asks the dev server for the problems of one page, by its route's token: an open
 * page asks for its own, so the stream itself names no page.
 */
export const PROBLEMS_QUERY = 'problems'

/** A problem event's data: how many problems the last check found (0: none), then the tokens of the pages' routes they are in. */
export function problemsEvent(routes: readonly (string | null)[]): string {
  return [routes.length, ...new Set(routes.flatMap((route) => (route === null ? [] : [routeToken(route)])))].join(' ')
}

/** What an open page at `route` shows of a problem event: how many problems, and whether one is its own. */
export function problemsFor(data: string, route: string): { count: number; here: boolean } {
  const [count, ...tokens] = data.split(' ')
  return { count: Number(count) || 0, here: tokens.includes(routeToken(route)) }
}
