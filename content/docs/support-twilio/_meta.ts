export default {
  intro: 'Introduction',
  diagram: 'Call flow diagram',
  'sql-queries': 'SQL queries'
}
