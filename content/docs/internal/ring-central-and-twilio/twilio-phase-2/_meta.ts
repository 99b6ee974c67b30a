export default {
  'call-route-am-unavailability': 'AM unavailability call route'
}
