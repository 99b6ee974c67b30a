// The sign-in form's TOTP set-up screen draws a QR code with the qrcode package, JavaScript
// (docs/benchmarks.md, figures behind choices in the code) that every visitor of the sign-in page downloaded although the screen appears
// only when a pool requires an authenticator app (ours does not: infra/lib/auth-stack.ts). This
// loads qrcode when that screen draws its code, so the screen still works if MFA is turned on.
// An Amplify UI upgrade that changes these lines fails the build.
//
// Measured by: the sign-in page's first-load JavaScript in `npm run bench size` (budget 200 kB).
// Tested in __tests__/patches/signIn.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const FILE = '@aws-amplify/ui-react/dist/esm/components/Authenticator/SetupTotp/SetupTotp.mjs'
const REPLACEMENTS = [
  ["import QRCode from 'qrcode';\n", '', 1],
  ['await QRCode.toDataURL(totpCode)', "await (await import('qrcode')).default.toDataURL(totpCode)", 1],
]

module.exports = function lazyQrCodeLoader(source) {
  return REPLACEMENTS.reduce(
    (result, [from, to, expected]) => replaceExactly(result, from, to, expected, { loader: 'lazyQrCodeLoader', file: FILE, dependency: 'Amplify UI' }),
    source
  )
}
module.exports.FILE = FILE
