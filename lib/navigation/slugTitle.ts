/**
 * A folder's title from its slug alone ("to-be-refined" -> "To Be Refined"), as Nextra names an
 * entry its `_meta` does not title. It tells a reader nothing its path does not, so it stands in
 * for a writer's title that belongs to a page the reader may not open (filterPageMap).
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
