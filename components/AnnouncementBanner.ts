/**
 * The optional announcement. Nextra's banner remembers a dismissal per `key`, so changing
 * `id` brings a dismissed announcement back. Set `text` to '' to show none.
 */
export const ANNOUNCEMENT = {
  id: '2025-11-docs-migration',
  text: 'The docs have moved to the new site. Report broken links to the docs team.',
}

export const bannerKey = (id: string) => `announcement-${id}`
