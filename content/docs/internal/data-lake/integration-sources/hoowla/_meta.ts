export default {
  case: 'Case',
  'case-enrichements': 'Case enrichments',
  'person-and-note': 'Person and note',
  quote: 'Quote',
  banner: 'Banner',
  webhooks: 'Webhooks'
}
