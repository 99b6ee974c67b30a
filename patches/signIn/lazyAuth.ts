/**
 * `aws-amplify/auth` for the sign-in page, loaded on first use. The page calls it, and next.config
 * gives it to Amplify UI's own files in place of `aws-amplify/auth` (./index.ts, `lazyAuth`).
 *
 * The Authenticator imports every Cognito flow it might run (sign-in with SRP and its big-number
 * maths, new password, TOTP and passkey set-up, forgotten password, sign-up, attribute checks),
 * and the sign-in page downloaded and ran all of them before the form could be used. Only
 * `getCurrentUser` runs when the form starts (it finds no reader and shows the form); every other
 * call answers a reader's action, so Amplify's auth module loads after the form is drawn: when the
 * reader focuses the form (pages/login.tsx calls `loadAuth`), or else on the first call.
 *
 * Each name Amplify UI imports from `aws-amplify/auth` must be exported here:
 * __tests__/patches/signIn.test.ts compares them with the installed Amplify UI. Measured by
 * `npm run bench size`: the sign-in page's first-load JavaScript (docs/benchmarks.md).
 */
import type * as Auth from 'aws-amplify/auth'

export { getCurrentUser } from 'aws-amplify/auth'

let loading: Promise<typeof Auth> | undefined
/** Amplify's auth module, fetched on first use (a failed fetch is tried again on the next call). */
export function loadAuth(): Promise<typeof Auth> {
  loading ??= import('aws-amplify/auth').catch((error) => {
    loading = undefined
    throw error
  })
  return loading
}

type AuthFunction = { [Name in keyof typeof Auth]: (typeof Auth)[Name] extends (...args: any[]) => Promise<unknown> ? Name : never }[keyof typeof Auth]

/** `name` of the auth module, loaded when first called. Every one of them returns a promise. */
function lazy<Name extends AuthFunction>(name: Name): (typeof Auth)[Name] {
  return ((...args: unknown[]) => loadAuth().then((auth) => (auth[name] as (...args: unknown[]) => Promise<unknown>)(...args))) as (typeof Auth)[Name]
}

export const signIn = lazy('signIn')
export const confirmSignIn = lazy('confirmSignIn')
export const signInWithRedirect = lazy('signInWithRedirect')
export const signOut = lazy('signOut')
export const signUp = lazy('signUp')
export const confirmSignUp = lazy('confirmSignUp')
export const resendSignUpCode = lazy('resendSignUpCode')
export const autoSignIn = lazy('autoSignIn')
export const resetPassword = lazy('resetPassword')
export const confirmResetPassword = lazy('confirmResetPassword')
export const updatePassword = lazy('updatePassword')
export const deleteUser = lazy('deleteUser')
export const fetchUserAttributes = lazy('fetchUserAttributes')
export const sendUserAttributeVerificationCode = lazy('sendUserAttributeVerificationCode')
export const confirmUserAttribute = lazy('confirmUserAttribute')
export const listWebAuthnCredentials = lazy('listWebAuthnCredentials')
export const associateWebAuthnCredential = lazy('associateWebAuthnCredential')
