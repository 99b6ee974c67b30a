/**
 * With a federated provider the site has two app clients (infra/lib/auth-stack.ts): the web client
 * for the username form, the federated client for "Sign in with <provider>" (the only one that may
 * write the directory's groups). Amplify must work with the client the reader's session belongs to:
 * the federated one on the way back from the provider, else the one whose cookies hold a session,
 * else the web client. (No identity provider runs here: the round trip through one is not tested.)
 */
import { readAuthSettings, type AuthSettings } from '../../lib/auth/authSettings'
import { clearAmplifyCookies } from '../../lib/auth/amplifyCookies'
import { FEDERATED_REDIRECT_KEY, isFederatedReturn, sessionClientFor } from '../../lib/auth/sessionClient'

const WEB = 'localdocsweb000000000000000'
const FEDERATED = 'federatedclient00000000000'
const federated: AuthSettings = readAuthSettings({
  DOCS_FEDERATED_PROVIDER: 'CompanySSO',
  DOCS_COGNITO_DOMAIN: 'company-docs.auth.eu-west-2.amazoncognito.com',
  DOCS_FEDERATED_CLIENT_ID: FEDERATED,
})
const sessionOf = (clientId: string, username: string) => `CognitoIdentityServiceProvider.${clientId}.LastAuthUser=${username}; CognitoIdentityServiceProvider.${clientId}.${username}.idToken=x.y.z`
const page = (overrides: Partial<Parameters<typeof sessionClientFor>[1]> = {}) => ({ cookieHeader: '', pathname: '/docs', search: '', federatedRedirectPending: false, ...overrides })

describe('which client a page works with', () => {
  test('without a provider, always the web client', () => {
    const settings = readAuthSettings({})
    expect(sessionClientFor(settings, page({ cookieHeader: sessionOf(FEDERATED, 'CompanySSO_a'), pathname: '/login', search: '?code=c', federatedRedirectPending: true }))).toBe(WEB)
  })

  test('no session: the web client (the username form)', () => {
    expect(sessionClientFor(federated, page())).toBe(WEB)
    expect(sessionClientFor(federated, page({ pathname: '/login' }))).toBe(WEB)
  })

  test("a federated reader's session: the federated client (to renew it and sign it out)", () => {
    expect(sessionClientFor(federated, page({ cookieHeader: sessionOf(FEDERATED, 'CompanySSO_a') }))).toBe(FEDERATED)
    expect(sessionClientFor(federated, page({ cookieHeader: sessionOf(WEB, 'leads1') }))).toBe(WEB)
  })

  test('the return from the provider this tab started: the federated client, to exchange the code', () => {
    expect(sessionClientFor(federated, page({ pathname: '/login', search: '?code=abc&state=s', federatedRedirectPending: true }))).toBe(FEDERATED)
    expect(sessionClientFor(federated, page({ pathname: '/login/', search: '?error=access_denied', federatedRedirectPending: true }))).toBe(FEDERATED)
    expect(sessionClientFor(federated, page({ pathname: '/login', search: '?code=abc&state=s', federatedRedirectPending: true, cookieHeader: sessionOf(WEB, 'leads1') }))).toBe(FEDERATED)
  })

  test('a mark without a return (the reader came back another way), or a code this tab did not ask for, is not a return', () => {
    expect(isFederatedReturn({ pathname: '/login', search: '', federatedRedirectPending: true })).toBe(false)
    expect(isFederatedReturn({ pathname: '/docs', search: '?code=abc', federatedRedirectPending: true })).toBe(false)
    expect(isFederatedReturn({ pathname: '/login', search: '?code=abc', federatedRedirectPending: false })).toBe(false)
    expect(sessionClientFor(federated, page({ pathname: '/login', search: '' , federatedRedirectPending: true }))).toBe(WEB)
  })
})

describe('configureAmplify and the sign-in button', () => {
  const clearCookies = () => {
    for (const pair of document.cookie.split(';')) {
      const name = pair.split('=')[0].trim()
      if (name) document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`
    }
  }
  // Local mode points Amplify at cognito-local, and Amplify warns of its custom endpoint at each configuration.
  let warn: jest.SpyInstance
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => {})
  })
  afterEach(() => {
    warn.mockRestore()
    clearCookies()
    window.sessionStorage.clear()
    window.history.replaceState(null, '', '/')
  })

  /** A fresh page load: the module's once-per-page state and Amplify's configuration start empty. */
  function load() {
    let modules!: { configure: typeof import('../../lib/auth/configureAmplify'); amplify: typeof import('@aws-amplify/core') }
    jest.isolateModules(() => {
      modules = { configure: require('../../lib/auth/configureAmplify'), amplify: require('@aws-amplify/core') }
    })
    const cognito = () => modules.amplify.Amplify.getConfig().Auth?.Cognito
    return { ...modules.configure, cognito }
  }

  test("a page with a federated reader's cookies configures the federated client, with the hosted domain's OAuth", () => {
    document.cookie = `CognitoIdentityServiceProvider.${FEDERATED}.LastAuthUser=CompanySSO_a; Path=/`
    const page = load()
    page.configureAmplify(federated)
    expect(page.amplifyClientId()).toBe(FEDERATED)
    expect(page.cognito()).toMatchObject({ userPoolClientId: FEDERATED, loginWith: { oauth: { domain: 'company-docs.auth.eu-west-2.amazoncognito.com', scopes: ['openid', 'email', 'profile'], responseType: 'code' } } })
  })

  test('a page with no session configures the web client, with no OAuth (it has none)', () => {
    const page = load()
    page.configureAmplify(federated)
    expect(page.amplifyClientId()).toBe(WEB)
    expect(page.cognito()?.userPoolClientId).toBe(WEB)
    expect(page.cognito()?.loginWith?.oauth).toBeUndefined()
  })

  test('the button marks the redirect and switches to the federated client; the page it returns to exchanges the code with it, once', () => {
    const before = load()
    before.configureAmplify(federated)
    before.prepareFederatedSignIn(federated)
    expect(window.sessionStorage.getItem(FEDERATED_REDIRECT_KEY)).not.toBeNull()
    expect(before.cognito()?.userPoolClientId).toBe(FEDERATED)

    window.history.replaceState(null, '', '/login?code=abc&state=s')
    const back = load()
    back.configureAmplify(federated)
    expect(back.cognito()?.userPoolClientId).toBe(FEDERATED)
    // The mark is used once: a reload of the same address is not a return.
    expect(window.sessionStorage.getItem(FEDERATED_REDIRECT_KEY)).toBeNull()
    const reloaded = load()
    reloaded.configureAmplify(federated)
    expect(reloaded.cognito()?.userPoolClientId).toBe(WEB)
  })

  test('the username form switches back to the web client', () => {
    document.cookie = `CognitoIdentityServiceProvider.${FEDERATED}.LastAuthUser=CompanySSO_a; Path=/`
    const page = load()
    page.configureAmplify(federated)
    page.switchAmplifyClient(federated, WEB)
    expect(page.cognito()?.userPoolClientId).toBe(WEB)
  })

  test('without a provider there is no federated sign-in to prepare', () => {
    const page = load()
    expect(() => page.prepareFederatedSignIn(readAuthSettings({}))).toThrow('no federated provider is configured')
  })
})

test("a new sign-in drops the session another client may still hold, and keeps its own", () => {
  document.cookie = `CognitoIdentityServiceProvider.${WEB}.LastAuthUser=leads1; Path=/`
  document.cookie = `CognitoIdentityServiceProvider.${FEDERATED}.LastAuthUser=CompanySSO_a; Path=/`
  document.cookie = 'unrelated=1; Path=/'
  clearAmplifyCookies(document, FEDERATED)
  expect(document.cookie.split('; ').sort()).toEqual([`CognitoIdentityServiceProvider.${FEDERATED}.LastAuthUser=CompanySSO_a`, 'unrelated=1'])
  clearAmplifyCookies(document)
  expect(document.cookie).toBe('unrelated=1')
  document.cookie = 'unrelated=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'
})
