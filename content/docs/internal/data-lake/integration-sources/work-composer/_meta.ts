export default {
  pipeline: 'Pipeline',
  'batch-jobs': 'Batch jobs'
}
