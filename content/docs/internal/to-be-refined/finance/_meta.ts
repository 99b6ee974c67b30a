export default {
  'quill-authentication': 'Quill authentication',
  'quill-crm-api': 'Quill CRM API',
  'quill-money-api': 'Quill Money API'
}
