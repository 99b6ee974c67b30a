export default {
  overall: 'Overall call volumes',
  'search-by-phone': 'Search by phone number',
  'search-by-case': 'Search by case',
  'case-worker-not-answering': 'Case worker not answering',
  procedures: 'Stored procedures',
  other: 'Other queries'
}
