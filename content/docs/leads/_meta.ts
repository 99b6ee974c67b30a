export default {
  intro: 'Introduction',
  environments: 'Environments',
  endpoints: 'Endpoints'
}
