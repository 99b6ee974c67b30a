export default {
  'enable-and-disable-case-enrichment-pipelines': 'Enable and disable case enrichment pipelines'
}
