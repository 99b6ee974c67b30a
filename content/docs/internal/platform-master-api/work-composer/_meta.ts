export default {
  apis: 'Work Composer APIs'
}
