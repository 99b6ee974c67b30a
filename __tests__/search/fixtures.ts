import type { NextraSearchData } from '../../lib/search/searchRecords'

/** The shape `next build` writes to .next/static/chunks/nextra-data-en-US.json, cut down to one or two pages per kind. */
export const NEXTRA_DATA: NextraSearchData = {
  '/': { title: 'Home', data: { '': 'Engineering and support documentation for the platform.' } },
  '/docs': { title: 'Documentation', data: { '': 'All documentation sections. Each section has its own sidebar.' } },
  '/docs/leads/intro': {
    title: 'Leads API introduction',
    data: { '': 'The leads API lets partners create quotes.', 'authentication#Authentication': 'Send the partner key in the x-api-key header.' },
  },
  '/docs/leads/endpoints/create-quote': {
    title: 'Create a quote',
    data: { '': 'POST /quotes creates a quote.', 'request-body#Request body': 'Field\tType\tRequired\nsource\tstring\tyes' },
  },
  '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements': {
    title: 'Hoowla case enrichments pipeline',
    data: {
      '': 'The case enrichments pipeline adds facts to each case.',
      'processing-steps#Processing steps': 'Load the case.\nAdvance the enrichment watermark for the case.',
      'enrichment-watermark-reconciliation#Enrichment watermark reconciliation': 'Each case stores an enriched_until watermark.',
      'monitoring#Monitoring': '',
    },
  },
  '/docs/internal/intro': { title: 'Internal docs', data: { 'c-tips#C# tips': 'A heading may hold a hash sign.' } },
  '/docs/support-twilio/sql-queries/search-by-phone': {
    title: 'Search by phone',
    data: { '': 'Find calls by the caller number.', 'query#Query': 'SELECT * FROM calls WHERE from_number = :phone' },
  },
}

/** Every reader kind of the shipped access.config.ts. */
export const ROLES = ['admin', 'leads1', 'internal1', 'support1', 'outsider'] as const
