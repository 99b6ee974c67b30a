export default {
  'create-quote': 'Create a quote',
  'get-quote-fees': 'Get quote fees'
}
