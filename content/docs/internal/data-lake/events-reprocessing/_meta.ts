export default {
  'dlq-overview': 'DLQ overview',
  'dlq-implementation': 'DLQ implementation'
}
