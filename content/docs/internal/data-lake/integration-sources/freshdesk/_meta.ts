export default {
  pipelines: 'Pipelines'
}
