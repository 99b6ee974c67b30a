/** @jest-environment node */
/**
 * `/llms.txt` per reader (edge/rootLlmsTxt.ts): one line per audience the reader holds. Parts of one
 * section that finer rules gave the reader share the section's title, so each is told apart by the
 * path its rule governs; a title held once stays as it is.
 */
import { rootLlmsTxt } from '../../edge/rootLlmsTxt'
import type { AudienceSummary } from '../../lib/access/readerView'

const audience = (id: string, title: string, governedBy: string): AudienceSummary => ({
  id,
  governedBy,
  sections: [],
  search: null,
  llms: `/_audiences/${id}/llms.txt`,
  catalog: null,
  title,
})

test("two parts of one section are told apart by the path each one's rule governs; another section's line is its title alone", () => {
  const text = rootLlmsTxt([audience('a1', 'Billing', '/docs/billing/payroll'), audience('a2', 'Billing', '/docs/billing/invoices'), audience('a3', 'Leads API', '/docs/leads/intro')], { username: 'payroll1', groups: [] })
  expect(text.split('\n').filter((line) => line.startsWith('- '))).toEqual([
    '- [Billing (/docs/billing/payroll)](/_audiences/a1/llms.txt): its pages, each linked to its Markdown, and its full text in parts',
    '- [Billing (/docs/billing/invoices)](/_audiences/a2/llms.txt): its pages, each linked to its Markdown, and its full text in parts',
    '- [Leads API](/_audiences/a3/llms.txt): its pages, each linked to its Markdown, and its full text in parts',
  ])
  expect(text).toContain('the parts that payroll1 may read')
})
