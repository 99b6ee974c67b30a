/**
 * `lodash/pickBy.js` as Amplify UI's authenticator machine sees it (next.config aliases it here:
 * ./index.ts, `smallPickBy`). It picks a sign-up form's user attributes,
 * `pickBy(formValues, selectUserAttributes)`: a plain object and a function of (value, key). For
 * that, lodash's own brings its whole iteratee machinery (deep equality, property paths, its map
 * and stack caches) to the sign-in page (its size: docs/benchmarks.md, figures behind choices in the code). This is lodash's answer
 * for such a call: the object's enumerable string keys, its own and inherited, whose value the
 * predicate accepts. __tests__/patches/signIn.test.ts compares it with lodash's and checks
 * that the installed Amplify UI still calls it that way. Measured by: the sign-in page's
 * first-load JavaScript in `npm run bench size`.
 */
export default function pickBy<T extends object>(object: T | null | undefined, predicate: (value: unknown, key: string) => unknown): Partial<T> {
  const picked: Record<string, unknown> = {}
  if (object == null) return picked as Partial<T>
  for (const key in object) {
    const value = (object as Record<string, unknown>)[key]
    if (predicate(value, key)) picked[key] = value
  }
  return picked as Partial<T>
}
