/**
 * `npm run dev` only: where an open docs page hears that the pages' props were written again
 * (scripts/server/propsEvents.ts, to which next.config.ts rewrites this path in dev), and what
 * each event says. Not served by a build.
 */
export const DEV_PROPS_EVENTS_PATH = '/_dev/props-events'

/** Above this many routes, an event names none: every open page refreshes (new access rules, a title every sidebar shows). */
const ROUTES_NAMED_AT_MOST = 500

/**
 * A route as the events name it: its 32-bit FNV-1a hash, so that the stream names no page. Two
 * routes with one token only make a page refresh when it need not.
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
