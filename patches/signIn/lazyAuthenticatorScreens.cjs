// The sign-in form's other screens load when the reader reaches them. Amplify UI's Authenticator
// imports every screen it has (forgotten password, new password, sign-up, MFA choice, TOTP and
// e-mail set-up, passkeys, attribute checks) into the sign-in page's first load, though the page
// opens on the sign-in screen and most readers see nothing else. Here its router loads each other
// screen with React.lazy when its route comes up (showing nothing for the moment that takes), and
// the two places that only named the screens no longer import them:
//  - Authenticator.mjs hung each screen on the component (`Authenticator.ForgotPassword`, for apps
//    that compose their own screens); this site does not, so only `Provider` and `SignIn` stay;
//  - defaultComponents.mjs listed each screen's default header and footer, which each screen also
//    takes itself when none is given (`{ Header = ForgotPassword.Header } = useCustomComponents()`).
// The TOTP set-up screen's QR-code library (qrcode) comes with that screen, as only it imports it.
// An Amplify UI upgrade that changes these lines fails the build.
//
// Measured by: the sign-in page's first-load JavaScript in `npm run bench size` (budget 200 kB).
// Tested in __tests__/patches/signIn.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const DIR = '@aws-amplify/ui-react/dist/esm/components/Authenticator'
/** Each screen loaded on demand, by the file that defines it (under DIR). */
const SCREENS = {
  ConfirmSignUp: 'ConfirmSignUp/ConfirmSignUp',
  ForceNewPassword: 'ForceNewPassword/ForceNewPassword',
  SetupTotp: 'SetupTotp/SetupTotp',
  ConfirmVerifyUser: 'VerifyUser/ConfirmVerifyUser',
  VerifyUser: 'VerifyUser/VerifyUser',
  ConfirmSignIn: 'ConfirmSignIn/ConfirmSignIn',
  ConfirmResetPassword: 'ForgotPassword/ConfirmResetPassword',
  ForgotPassword: 'ForgotPassword/ForgotPassword',
  SelectMfaType: 'SelectMfaType/SelectMfaType',
  SetupEmail: 'SetupEmail/SetupEmail',
  SignInSelectAuthFactor: 'SignInSelectAuthFactor/SignInSelectAuthFactor',
  PasskeyPrompt: 'PasskeyPrompt/PasskeyPrompt',
  SignUp: 'SignUp/SignUp',
}

const LAZY_SCREEN = (react) => `const lazyScreen = (load, name) => ${react}.lazy(() => load().then((module) => ({ default: module[name] })));\n`

/** What each patched file (under DIR) imports of the screens, and what becomes of it. */
const FILES = {
  'Router/Router.mjs': {
    react: "import React__default, { useMemo } from 'react';\n",
    lazy: ['ConfirmSignUp', 'ForceNewPassword', 'SetupTotp', 'ConfirmVerifyUser', 'VerifyUser', 'ConfirmSignIn', 'ConfirmResetPassword', 'ForgotPassword', 'SelectMfaType', 'SetupEmail', 'SignInSelectAuthFactor', 'PasskeyPrompt'],
    // The screens suspend while they load: the router renders them inside a Suspense boundary.
    also: [
      ['function Router({ className, hideSignUp, variation, }) {', 'function RouterScreens({ className, hideSignUp, variation, }) {'],
      [
        'export { Router };',
        'function Router(props) {\n    return React__default.createElement(React__default.Suspense, { fallback: null }, React__default.createElement(RouterScreens, props));\n}\n\nexport { Router };',
      ],
    ],
  },
  // Inside the router's Suspense boundary.
  'shared/SignInSignUpTabs.mjs': { react: "import React__default from 'react';\n", lazy: ['SignUp'] },
  'Authenticator.mjs': {
    dropped: ['SetupTotp', 'SignUp', 'ForceNewPassword', 'ForgotPassword', 'SelectMfaType', 'SetupEmail'],
    bare: ['ConfirmResetPassword'],
  },
  'hooks/useCustomComponents/defaultComponents.mjs': {
    defaults: ['SignUp', 'ConfirmSignUp', 'SelectMfaType', 'SetupEmail', 'SetupTotp', 'ConfirmResetPassword', 'ConfirmSignIn', 'VerifyUser', 'ConfirmVerifyUser', 'ForceNewPassword', 'ForgotPassword'],
  },
}

const relativeTo = (file, screen) => {
  const up = file.split('/').length - 1
  return `${up ? '../'.repeat(up) : './'}${SCREENS[screen]}.mjs`
}

function patch(file, source) {
  const spec = FILES[file]
  const context = { loader: 'lazyAuthenticatorScreensLoader', file: `${DIR}/${file}`, dependency: 'Amplify UI' }
  const replace = (text, from, to, expected = 1) => replaceExactly(text, from, to, expected, context)
  let result = source
  if (spec.lazy) {
    result = replace(result, spec.react, spec.react + LAZY_SCREEN(spec.react.includes('React__default') ? 'React__default' : 'React'))
    for (const screen of spec.lazy) {
      result = replace(result, `import { ${screen} } from '${relativeTo(file, screen)}';\n`, `const ${screen} = lazyScreen(() => import('${relativeTo(file, screen)}'), '${screen}');\n`)
    }
  }
  for (const screen of spec.dropped ?? []) {
    result = replace(result, `import { ${screen} } from '${relativeTo(file, screen)}';\n`, '')
    result = replace(result, `Authenticator.${screen} = ${screen};\n`, '')
  }
  for (const screen of spec.bare ?? []) result = replace(result, `import '${relativeTo(file, screen)}';\n`, '')
  for (const screen of spec.defaults ?? []) {
    result = replace(result, `import { ${screen} } from '${relativeTo(file, screen)}';\n`, '')
    const uses = result.split(`${screen}.`).length - 1
    if (uses < 2) throw new Error(`lazyAuthenticatorScreensLoader: expected ${screen}'s header and footer in ${context.file}, found ${uses} uses; Amplify UI changed`)
    result = result.replace(new RegExp(`\\b${screen}\\.(Header|Footer|FormFields)\\b`, 'g'), 'undefined')
  }
  for (const [from, to] of spec.also ?? []) result = replace(result, from, to)
  // Any screen still imported as a module of its own would bring it back into the first load.
  const left = Object.keys(SCREENS).filter((screen) => result.includes(`/${SCREENS[screen].split('/')[1]}.mjs';`) && !result.includes(`import('${relativeTo(file, screen)}')`))
  if (left.length) throw new Error(`lazyAuthenticatorScreensLoader: ${context.file} still imports ${left.join(', ')}; Amplify UI changed`)
  return result
}

module.exports = function lazyAuthenticatorScreensLoader(source) {
  const file = Object.keys(FILES).find((name) => this.resourcePath.replace(/\\/g, '/').endsWith(`${DIR}/${name}`))
  if (!file) throw new Error(`lazyAuthenticatorScreensLoader: not a file it patches: ${this.resourcePath}`)
  return patch(file, source)
}
module.exports.DIR = DIR
module.exports.FILES = Object.keys(FILES)
module.exports.SCREENS = SCREENS
module.exports.patch = patch
