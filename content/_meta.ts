// The top level of the site. Each section is its own navbar tab with its own sidebar: the build
// adds a page's own section here (pipeline/pageMaps.ts) and the browser adds the reader's
// other sections from the authority's answer, so this file names no section. Order and titles
// within a section live in content/docs/<section>/_meta.ts.
export default {
  index: {
    title: 'Home',
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, breadcrumb: false, pagination: false, timestamp: false },
  },
  docs: { title: 'Docs', type: 'page', display: 'hidden' },
}
