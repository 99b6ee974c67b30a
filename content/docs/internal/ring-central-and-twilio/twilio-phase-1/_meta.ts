export default {
  overview: 'Overview',
  configuration: 'Configuration',
  webhooks: 'Webhooks'
}
