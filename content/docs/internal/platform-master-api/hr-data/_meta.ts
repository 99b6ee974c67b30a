export default {
  'mint-hr': 'Mint HR API'
}
