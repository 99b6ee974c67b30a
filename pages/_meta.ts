import { SECTIONS } from '../lib/navigation/siteNavigation'

// Each section is its own navbar tab with its own sidebar (lib/navigation/shapePageMap lifts
// the /docs/<section> folders to this level). Order and titles within a section live in
// content/docs/<section>/_meta.ts.
export default {
  index: {
    title: 'Home',
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, breadcrumb: false, pagination: false, timestamp: false },
  },
  ...Object.fromEntries(SECTIONS.map((section) => [section.id, { title: section.title, type: 'page' }])),
  docs: { title: 'Docs', type: 'page', display: 'hidden' },
}
