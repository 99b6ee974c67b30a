/**
 * The Authenticator's texts are the replaced site's (SPEC §9) where Amplify UI's defaults differ:
 * what its screens render goes through this translation, so these are the words a reader sees.
 */
import { authenticatorTextUtil, translate, DefaultTexts } from '@aws-amplify/ui'

// A reader whose browser asks for German: the page is English, and so are the sign-in screens.
Object.defineProperty(window.navigator, 'language', { value: 'de-DE', configurable: true })
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../../components/signInTexts')

test('the sign-in button reads "Sign In", the reset screens\' heading "Reset your password"', () => {
  expect(translate(DefaultTexts.SIGN_IN_BUTTON)).toBe('Sign In')
  expect(authenticatorTextUtil.getResetYourPasswordText()).toBe('Reset your password')
})

test('the other texts SPEC §9 lists are Amplify UI\'s own, unchanged', () => {
  const texts = [DefaultTexts.CREATE_ACCOUNT, DefaultTexts.FORGOT_YOUR_PASSWORD, DefaultTexts.CONFIRM, DefaultTexts.RESEND_CODE, DefaultTexts.SKIP, DefaultTexts.VERIFY, DefaultTexts.BACK_SIGN_IN, DefaultTexts.SEND_CODE, DefaultTexts.SUBMIT]
  expect(texts.map((text) => translate(text))).toEqual(['Create Account', 'Forgot your password?', 'Confirm', 'Resend Code', 'Skip', 'Verify', 'Back to Sign In', 'Send code', 'Submit'])
})
