export default {
  integration: 'Integration'
}
