export default {
  overview: 'Overview',
  architecture: 'Architecture',
  'integration-sources': 'Integration sources',
  'data-sync-from-kinesis': 'Data sync from Kinesis',
  'data-migrations-aws-dms': 'Data migrations with AWS DMS',
  'events-reprocessing': 'Events reprocessing',
  'tech-reasoning': 'Tech reasoning'
}
