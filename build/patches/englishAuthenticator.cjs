// The sign-in form (Amplify UI's Authenticator) bundles its texts in 20 languages, about a third
// of its JavaScript's text, because Amplify UI's `translations` export names them all. The site is
// English only (lib/navigation/siteChrome.ts LANGUAGES), the form never reads `translations`, and
// the texts it shows come from `defaultTexts` and I18n. This keeps English alone. An Amplify UI
// upgrade that changes these lines fails the build.
const replaceExactly = require('./replaceExactly.cjs')

const FILE = '@aws-amplify/ui/dist/esm/i18n/translations.mjs'
const ALL_DICTIONARIES =
  "import { defaultTexts, thDict, uaDict, heDict, ruDict, trDict, svDict, zhDict, ptDict, plDict, nlDict, nbDict, krDict, jaDict, itDict, idDict, huDict, frDict, esDict, enDict, deDict } from './dictionaries/index.mjs';"
const ENGLISH_ONLY =
  "import { defaultTexts } from './dictionaries/authenticator/defaultTexts.mjs';\nimport { enDict } from './dictionaries/authenticator/en.mjs';"

module.exports = function englishAuthenticatorLoader(source) {
  const imports = replaceExactly(source, ALL_DICTIONARIES, ENGLISH_ONLY, 1, { loader: 'englishAuthenticatorLoader', file: FILE, dependency: 'Amplify UI' })
  const table = /const translations = \{[^}]*\};/.exec(imports)
  if (!table) throw new Error(`englishAuthenticatorLoader: no \`const translations = {…}\` in ${FILE}; Amplify UI changed`)
  return imports.replace(table[0], 'const translations = {\n    en: enDict,\n};')
}
module.exports.FILE = FILE
