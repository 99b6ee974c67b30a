export default {
  'db-instance': 'Database instance',
  'primary-data-stream-pipeline': 'Primary data stream pipeline',
  'programming-languages': 'Programming languages'
}
