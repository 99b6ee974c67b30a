export default {
  'design-and-architecture': 'Design and architecture'
}
