export default {
  overview: 'Overview',
  'monitoring-traces': 'Monitoring traces'
}
