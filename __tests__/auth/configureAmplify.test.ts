import { Amplify } from 'aws-amplify'
import { LOCAL_COGNITO, readAuthSettings } from '../../lib/auth/authSettings'
import { configureAmplify } from '../../lib/auth/configureAmplify'

const CUSTOM_ENDPOINT_WARNING = /custom Amazon .*Cognito User Pool endpoint/

test('in the browser, local mode configures Amplify with the emulator endpoint, once, and Amplify still says so', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    configureAmplify(readAuthSettings({}))
    configureAmplify(readAuthSettings({}))
    expect(Amplify.getConfig().Auth?.Cognito).toMatchObject({ userPoolId: LOCAL_COGNITO.userPoolId, userPoolEndpoint: LOCAL_COGNITO.endpoint })
    const warnings = warn.mock.calls.map((args) => args.join(' ')).filter((text) => CUSTOM_ENDPOINT_WARNING.test(text))
    expect(warnings).toHaveLength(1)
  } finally {
    warn.mockRestore()
  }
})
