export default {
  hoowla: 'Hoowla',
  hubspot: 'HubSpot',
  'ring-central': 'RingCentral',
  freshdesk: 'Freshdesk',
  'hr-data': 'HR data',
  'work-composer': 'Work Composer'
}
