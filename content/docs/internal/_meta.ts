export default {
  intro: 'Introduction',
  architecture: 'Architecture',
  'data-lake': 'Data lake',
  'platform-master-api': 'Platform master API',
  'ring-central-and-twilio': 'RingCentral and Twilio',
  'deployments-and-infrastructure': 'Deployments and infrastructure',
  guidelines: 'Guidelines',
  'product-support': 'Product support',
  'to-be-refined': 'To be refined'
}
