/**
 * Where a declared section lives: its pages under `/docs/<id>` (content/docs/<id>/), and the files
 * built from them beneath (lib/access/planAggregates.ts), so the section's one rule governs them all.
 * Every consumer asks here.
 */
/** The docs' root page (content/docs/index.mdx), which lists the sections; the sections lie below it. */
export const DOCS_ROOT = '/docs'

export const sectionPrefix = (id: string) => `${DOCS_ROOT}/${id}`

/** Whether a canonical route is the section's root or lies below it. */
export const inSection = (route: string, id: string) => route === sectionPrefix(id) || route.startsWith(`${sectionPrefix(id)}/`)

