/**
 * The site's port on this machine, and the one check of a port variable: `npm start` and
 * `npm run dev` read PORT by the same rule, so a bad value is named before anything starts rather
 * than reported as a listen error.
 */

/** The site's port when PORT is not set, as `next dev`'s and `next start`'s. */
export const SITE_PORT = 3000

/** The port `value` (a variable's, `name`) names; `fallback` when it is unset. Throws a RangeError naming the variable when it is not a port. */
export function portOf(name: string, value: string | undefined, fallback: number, zeroPicksFree: boolean): number {
  if (!value) return fallback
  const port = Number(value)
  if (!/^\d{1,5}$/.test(value) || port > 65535 || (port === 0 && !zeroPicksFree)) {
    throw new RangeError(`${name} must be a port number (${zeroPicksFree ? '0-65535; 0 picks a free one' : '1-65535'}), not "${value}"`)
  }
  return port
}
