export default {
  api: 'Hoowla API'
}
