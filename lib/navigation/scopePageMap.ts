import type { RawFolder, RawItem } from './shapePageMap'

export interface SectionStub {
  id: string
  title: string
  href: string
}

/**
 * The page map that one section's pages are built with. Nextra inlines the page map into every
 * page's JavaScript, so without this a leads page would carry the title and description of every
 * internal page. Other sections shrink to a stub that holds only what the navbar tab needs
 * (the section's title and entry page), which is public anyway.
 *
 * `scope` is a section id, or null for pages outside every section (home, docs root).
 */
export function scopePageMap(shaped: RawItem[], sections: readonly SectionStub[], scope: string | null): RawItem[] {
  return shaped.map((item) => {
    const section = sections.find((candidate) => 'children' in item && candidate.id === (item as RawFolder).name)
    if (!section || section.id === scope) return item
    const entry = section.href.split('/').pop() as string
    return { name: section.id, route: (item as RawFolder).route, children: [{ name: entry, route: section.href, frontMatter: { title: section.title } }] }
  })
}

/** The section a page route belongs to, or null. */
export function sectionOfRoute(route: string, sections: readonly SectionStub[]): string | null {
  const found = sections.find((section) => route === `/docs/${section.id}` || route.startsWith(`/docs/${section.id}/`))
  return found ? found.id : null
}
