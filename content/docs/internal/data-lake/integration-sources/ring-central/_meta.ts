export default {
  'pipeline-overview': 'Pipeline overview',
  webhook_configure: 'Configure webhooks',
  'account-events-api': 'Account events API',
  'telephony-webhooks-api': 'Telephony webhooks API',
  'presence-webhooks-api': 'Presence webhooks API',
  'message-store-events-api': 'Message store events API',
  'call-recording-archive': 'Call recording archive'
}
