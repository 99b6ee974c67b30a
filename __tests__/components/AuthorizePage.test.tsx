/**
 * The consent page names the tool as it names itself, the host its sign-in goes to, and, for a
 * tool whose id is the address of its description (a Client ID Metadata Document), the host that
 * publishes it: the one part of a self-named "Claude" a reader can check.
 */
import { screen } from '@testing-library/react'
import AuthorizePage from '../../pages/authorize'
import { resetMockRouter } from './helpers/mockNextRouter'
import { READERS, renderAs } from './helpers/readers'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())
jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(() => Promise.resolve()),
  fetchAuthSession: jest.fn(() => Promise.reject(new Error('offline'))),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))),
}))
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))

async function consentFor(clientId: string) {
  resetMockRouter({ pathname: '/authorize', query: { uid: 'interaction-1' } })
  global.fetch = jest.fn(async () => ({ status: 200, ok: true, json: async () => ({ client: 'Claude', clientId, redirectHost: '127.0.0.1:33418', reader: 'leads1' }) })) as unknown as typeof fetch
  renderAs(READERS.leads1, <AuthorizePage />)
  return (await screen.findByText('Claude')).closest('p') as HTMLElement
}

test('a tool whose id is its published description: the page names the host that publishes it', async () => {
  const line = await consentFor('https://tools.example.net/oauth/client.json')
  expect(line).toHaveTextContent('Claude (the name the tool gives itself; its description is published at tools.example.net) wants to sign in to the docs as you, leads1.')
  expect(screen.getByText('127.0.0.1:33418')).toBeInTheDocument()
})

test('a tool registered with the site: only the name it gives itself', async () => {
  const line = await consentFor('Yq3d5kz0Vd2mQp1s')
  expect(line).toHaveTextContent('Claude (the name the tool gives itself) wants to sign in to the docs as you, leads1.')
  expect(line).not.toHaveTextContent('published')
})
