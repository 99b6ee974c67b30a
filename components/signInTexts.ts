/**
 * The sign-in screens' texts where Amplify UI v6's English defaults differ from the replaced
 * site's (SPEC §9, "Sign-in texts"): its sign-in button reads "Sign in" and its reset screens'
 * heading "Reset Password". Registered as Amplify's English vocabulary, which the Authenticator
 * translates every text through; imported by the sign-in page before it renders. The site is in
 * English, so the language is too: Amplify would otherwise take the browser's, and a German
 * browser would get Amplify's German texts on an English page.
 */
import { I18n } from 'aws-amplify/utils'

export const SIGN_IN_TEXTS: Readonly<Record<string, string>> = {
  'Sign in': 'Sign In',
  'Reset Password': 'Reset your password',
}

I18n.putVocabulariesForLanguage('en', SIGN_IN_TEXTS)
I18n.setLanguage('en')
