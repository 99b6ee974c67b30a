/**
 * `npm run dev` only: where an open docs page hears that the pages' props were written again
 * (scripts/server/propsEvents.ts, to which next.config.ts rewrites this path in dev). Not served by
 * a build.
 */
export const DEV_PROPS_EVENTS_PATH = '/_dev/props-events'
