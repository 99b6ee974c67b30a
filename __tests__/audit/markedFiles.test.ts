/** @jest-environment node */
/**
 * The files the audit marks in each declared section (scripts/audit/markers.ts markedFilesOf): the
 * chosen ones for the shipped sections, and for a section an admin adds, its entry page, its first
 * SVG and its `_meta`, or an image and a `_meta` the audit adds, so a new section is audited too.
 */
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access/compileAccess'
import { scanContent } from '../../pipeline/content/contentSource'
import { ADDED_IMAGE, MARKED_IMAGES, MARKED_METAS, MARKED_PAGES, markedFilesOf } from '../../scripts/audit/markers'

const root = path.resolve(__dirname, '../..')
const source = scanContent(root)
const billing = { id: 'billing', title: 'Billing', description: 'Invoices.', entry: '/docs/billing/intro', readers: 'fullAccessUsers' }

test('the shipped sections are marked where the audit chose; an added section at its entry page, its first SVG and its _meta', () => {
  const sections = compileAccess({ ...shipped, sections: [...shipped.sections, billing] }, {}).sections
  const files = {
    pages: [...source.pages, { file: 'content/docs/billing/intro.mdx', route: '/docs/billing/intro' }, { file: 'content/docs/billing/a.mdx', route: '/docs/billing/a' }],
    publicFiles: [...source.publicFiles, { file: 'public/docs/billing/chart.png' }, { file: 'public/docs/billing/flow.svg' }],
  }
  const marked = markedFilesOf(sections, files)
  expect(Object.keys(marked)).toEqual(['leads', 'internal', 'support-twilio', 'billing'])
  expect(marked.leads).toEqual({ page: MARKED_PAGES.leads, image: MARKED_IMAGES.leads, meta: MARKED_METAS.leads })
  expect(marked.billing).toEqual({ page: 'content/docs/billing/intro.mdx', image: 'public/docs/billing/flow.svg', meta: 'content/docs/billing/_meta.ts' })
})

test('an added section without an SVG gets the image the audit adds; one whose entry page is gone is marked at another of its pages; one with no page fails, naming it', () => {
  const sections = compileAccess({ ...shipped, sections: [billing] }, {}).sections
  expect(markedFilesOf(sections, { pages: [{ file: 'content/docs/billing/a.mdx', route: '/docs/billing/a' }], publicFiles: [] }).billing).toEqual({
    page: 'content/docs/billing/a.mdx',
    image: `public/docs/billing/${ADDED_IMAGE}`,
    meta: 'content/docs/billing/_meta.ts',
  })
  expect(() => markedFilesOf(sections, { pages: [], publicFiles: [] })).toThrow('the audit finds no page of section "billing" to mark (none under content/docs/billing/)')
})
