export default {
  'new-data-source_integration-guide': 'New data source integration guide',
  'environment-variables-management-guide': 'Environment variables management',
  'secrets-management': 'Secrets management',
  'disaster-recovery-plan': 'Disaster recovery plan'
}
