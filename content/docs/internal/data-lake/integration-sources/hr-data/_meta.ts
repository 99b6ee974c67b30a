export default {
  pipeline: 'Pipeline'
}
