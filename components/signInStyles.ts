/**
 * The Amplify UI styles the sign-in form draws with, instead of the whole library's stylesheet
 * (`styles.css`): the design tokens with the small reset that stylesheet has (base), and the
 * components of the Authenticator's screens (sign-in, forgotten password, new password, TOTP
 * set-up, MFA choice, phone fields). The browser parses and matches far less CSS on the one page
 * that loads it (docs/benchmarks.md, figures behind choices in the code).
 * __tests__/pipeline/signInStyles.test.ts checks this list against the installed Authenticator.
 *
 * The order is the order of `styles.css`: rules of equal specificity in two components (an
 * alert's close button is also a button) resolve by it. The screens were compared pixel for
 * pixel with the whole stylesheet, light and dark, at phone and desktop widths. A component the
 * Authenticator starts to use needs its file added here, in that order.
 */
import '@aws-amplify/ui-react/styles/base.css'
import '@aws-amplify/ui-react/styles/flex.css'
import '@aws-amplify/ui-react/styles/text.css'
import '@aws-amplify/ui-react/styles/button.css'
import '@aws-amplify/ui-react/styles/fieldMessages.css'
import '@aws-amplify/ui-react/styles/heading.css'
import '@aws-amplify/ui-react/styles/icon.css'
import '@aws-amplify/ui-react/styles/input.css'
import '@aws-amplify/ui-react/styles/loader.css'
import '@aws-amplify/ui-react/styles/alert.css'
import '@aws-amplify/ui-react/styles/authenticator.css'
import '@aws-amplify/ui-react/styles/dialCodeSelect.css'
import '@aws-amplify/ui-react/styles/divider.css'
import '@aws-amplify/ui-react/styles/field.css'
import '@aws-amplify/ui-react/styles/fieldGroup.css'
import '@aws-amplify/ui-react/styles/fieldset.css'
import '@aws-amplify/ui-react/styles/passwordField.css'
import '@aws-amplify/ui-react/styles/phoneNumberField.css'
import '@aws-amplify/ui-react/styles/radio.css'
import '@aws-amplify/ui-react/styles/radiogroup.css'
import '@aws-amplify/ui-react/styles/radioGroupField.css'
import '@aws-amplify/ui-react/styles/select.css'
import '@aws-amplify/ui-react/styles/selectField.css'
import '@aws-amplify/ui-react/styles/tabs.css'
import '@aws-amplify/ui-react/styles/textField.css'
import '@aws-amplify/ui-react/styles/fieldModifiers.css'
import '@aws-amplify/ui-react/styles/visuallyHidden.css'
