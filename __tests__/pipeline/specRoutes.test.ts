/** @jest-environment node */
import path from 'node:path'
import { scanContent } from '../../pipeline/content/contentSource'

/** Every route the site this product replaces had, with `{product}` = `platform`. */
const internal = [
  'intro',
  'architecture',
  'architecture/design-and-architecture',
  'data-lake',
  ...['overview', 'architecture', 'data-migrations-aws-dms', 'data-sync-from-kinesis', 'events-reprocessing', 'events-reprocessing/dlq-overview', 'events-reprocessing/dlq-implementation'].map((p) => `data-lake/${p}`),
  ...[
    '',
    'freshdesk',
    'freshdesk/pipelines',
    'hoowla',
    ...['banner', 'case-enrichements', 'case', 'webhooks', 'person-and-note', 'quote'].map((p) => `hoowla/${p}`),
    'hr-data',
    'hr-data/pipeline',
    'hubspot',
    'hubspot/integration',
    'ring-central',
    ...['account-events-api', 'call-recording-archive', 'message-store-events-api', 'pipeline-overview', 'presence-webhooks-api', 'telephony-webhooks-api', 'webhook_configure'].map((p) => `ring-central/${p}`),
    'work-composer',
    'work-composer/batch-jobs',
    'work-composer/pipeline',
  ].map((p) => `data-lake/integration-sources${p ? '/' + p : ''}`),
  ...['', 'db-instance', 'primary-data-stream-pipeline', 'programming-languages'].map((p) => `data-lake/tech-reasoning${p ? '/' + p : ''}`),
  ...['', 'api-deployment-pipelines', 'aws-xray', 'aws-xray/overview', 'aws-xray/monitoring-traces', 'deployments-overview', 'lambda-jobs-deployment-pipeline', 'production-release'].map(
    (p) => `deployments-and-infrastructure${p ? '/' + p : ''}`
  ),
  ...['', 'disaster-recovery-plan', 'environment-variables-management-guide', 'new-data-source_integration-guide', 'secrets-management'].map((p) => `guidelines${p ? '/' + p : ''}`),
  ...['', 'hoowla', 'hoowla/api', 'hr-data', 'hr-data/mint-hr', 'work-composer', 'work-composer/apis', 'swagger-documentation'].map((p) => `platform-master-api${p ? '/' + p : ''}`),
  'product-support',
  'product-support/enable-and-disable-case-enrichment-pipelines',
  ...[
    '',
    'ringcentral-overview',
    'twilio-overview',
    'twilio-phase-1',
    'twilio-phase-1/configuration',
    'twilio-phase-1/overview',
    'twilio-phase-1/webhooks',
    ...['call-route-general-cs', 'call-route-menu', 'call-route-pressone', 'call-route-voice', 'optimization'].map((p) => `twilio-phase-1/webhooks/${p}`),
    'twilio-phase-2',
    'twilio-phase-2/call-route-am-unavailability',
  ].map((p) => `ring-central-and-twilio${p ? '/' + p : ''}`),
  ...['', 'active-directory', 'comparison', 'data-event', 'finance', 'finance/quill-authentication', 'finance/quill-crm-api', 'finance/quill-money-api'].map((p) => `to-be-refined${p ? '/' + p : ''}`),
].map((p) => `/docs/internal/${p}`)

const SPEC_ROUTES = [
  '/',
  '/docs',
  ...['intro', 'environments', 'endpoints', 'endpoints/create-quote', 'endpoints/get-quote-fees'].map((p) => `/docs/leads/${p}`),
  ...['intro', 'diagram', 'sql-queries', ...['case-worker-not-answering', 'other', 'overall', 'procedures', 'search-by-case', 'search-by-phone'].map((p) => `sql-queries/${p}`)].map(
    (p) => `/docs/support-twilio/${p}`
  ),
  ...internal,
]

test('every route of the replaced site is a page, with its exact slug', () => {
  const routes = new Set(scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route))
  expect(SPEC_ROUTES.filter((route) => !routes.has(route))).toEqual([])
  expect(SPEC_ROUTES.length).toBeGreaterThan(95)
})
