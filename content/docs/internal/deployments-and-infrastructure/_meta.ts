export default {
  'deployments-overview': 'Deployments overview',
  'api-deployment-pipelines': 'API deployment pipelines',
  'lambda-jobs-deployment-pipeline': 'Lambda jobs deployment pipeline',
  'production-release': 'Production release',
  'aws-xray': 'AWS X-Ray'
}
