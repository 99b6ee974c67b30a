/**
 * Where a declared section lives: its pages under `/docs/<id>` (content/docs/<id>/), and its search
 * index beneath them, so the section's one rule governs both. Every consumer asks here.
 */
export const sectionPrefix = (id: string) => `/docs/${id}`

/** Whether a canonical route is the section's root or lies below it. */
export const inSection = (route: string, id: string) => route === sectionPrefix(id) || route.startsWith(`${sectionPrefix(id)}/`)

/** URL path of the section's Pagefind bundle (ends in `/`). */
export const sectionSearchIndex = (id: string) => `${sectionPrefix(id)}/_pagefind/`
