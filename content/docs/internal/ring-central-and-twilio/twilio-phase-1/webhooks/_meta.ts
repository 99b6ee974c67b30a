export default {
  'call-route-general-cs': 'General CS call route',
  'call-route-menu': 'Menu call route',
  'call-route-pressone': 'Press one call route',
  'call-route-voice': 'Voice call route',
  optimization: 'Optimization'
}
