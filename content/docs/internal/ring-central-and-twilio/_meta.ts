export default {
  'ringcentral-overview': 'RingCentral overview',
  'twilio-overview': 'Twilio overview',
  'twilio-phase-1': 'Twilio phase 1',
  'twilio-phase-2': 'Twilio phase 2'
}
