export default {
  'swagger-documentation': 'Swagger documentation',
  hoowla: 'Hoowla',
  'hr-data': 'HR data',
  'work-composer': 'Work Composer'
}
