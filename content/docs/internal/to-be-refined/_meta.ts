export default {
  'active-directory': 'Active Directory',
  comparison: 'Comparison',
  'data-event': 'Data event',
  finance: 'Finance'
}
