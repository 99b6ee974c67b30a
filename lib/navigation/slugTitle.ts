/**
 * The title of a page or folder that no writer titled, from its name alone ("to-be-refined" ->
 * "To Be Refined", "api_v2" -> "Api V2"): the one rule. The build's page map titles an untitled
 * page by it (pipeline/content/contentSource.ts), the browser's sidebar a folder whose writer's
 * title belongs to a page the reader may not open (filterPageMap: the name tells a reader nothing
 * its path does not), the AI tools' page tree an untitled folder or page, and the content check
 * the section it suggests declaring.
 *
 * Not Nextra's rule (the `title` package, which knows words such as API and keeps small words
 * lower case): this one runs in every page's browser bundle, the sign-in page's included, and
 * the package would add to that page's first-load JavaScript, which is at its budget.
 */
export const slugTitle = (slug: string): string =>
  slug
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ')

/** The `_meta` value `value` with its title replaced by the stand-in (other fields, such as `display`, kept). */
export function withSlugTitle(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? { ...value, title: slugTitle(key) } : slugTitle(key)
}

/** Whether a `_meta` value carries only the stand-in title, so a writer's title for the same key wins over it. */
export function hasSlugTitle(value: unknown, key: string): boolean {
  const title = typeof value === 'object' && value !== null ? (value as { title?: unknown }).title : value
  return title === slugTitle(key)
}
