/**
 * A reader signs out in one tab: their other tabs of the site, which keep showing what they had
 * fetched, are told (lib/auth/sessionChannel.ts), ask the authority again and go to the sign-in
 * page. The other tab here is a BroadcastChannel of the same name, as another tab's would be; the
 * tab that signs out is not told (it goes to the sign-in page itself).
 */
import { act, render, screen, waitFor } from '@testing-library/react'
import { BroadcastChannel as NodeBroadcastChannel } from 'node:worker_threads'
import { RouteGuard } from '../../components/RouteGuard'
import { readerViewFor, readerViewSources } from '../../edge/readerViewFor'
import { access } from '../../lib/access'
import { READER_VIEW_PATH } from '../../lib/access/readerView'
import { AuthProvider } from '../../lib/auth/AuthContext'
import { readSessionCookies } from '../../lib/auth/readSessionCookies'
import { SESSION_CHANNEL } from '../../lib/auth/sessionChannel'
import { siteAuthSettings } from '../../lib/auth/siteAuthSettings'
import { loadAfresh } from '../../lib/navigation/loadAfresh'
import { SHIPPED_AUDIENCES } from './helpers/readers'
import { mockRouter, resetMockRouter } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('../../lib/navigation/loadAfresh', () => ({ loadAfresh: jest.fn() }))
jest.mock('../../lib/auth/amplifySession', () => ({ refreshSession: jest.fn(), amplifySignOut: jest.fn(async () => {}) }))
jest.mock('../../lib/aiTools/oauthRequests', () => ({ ...jest.requireActual('../../lib/aiTools/oauthRequests'), revokeConnections: jest.fn(async () => {}) }))

const prefix = `CognitoIdentityServiceProvider.${siteAuthSettings.userPoolClientId}`
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const sources = readerViewSources(access, {}, SHIPPED_AUDIENCES)

beforeAll(() => {
  // jsdom has no BroadcastChannel; Node's carries messages between channels of one name in this process, as tabs' do.
  Object.assign(window, { BroadcastChannel: NodeBroadcastChannel })
  Object.assign(globalThis, { BroadcastChannel: NodeBroadcastChannel })
})
beforeEach(() => {
  resetMockRouter({ pathname: '/docs/leads/intro' })
  document.cookie = `${prefix}.LastAuthUser=leads1; path=/`
  document.cookie = `${prefix}.leads1.idToken=${base64url({ alg: 'RS256' })}.${base64url({ 'cognito:username': 'leads1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig; path=/`
  global.fetch = jest.fn(async (url: string) => {
    expect(url).toBe(READER_VIEW_PATH)
    const session = readSessionCookies(document.cookie, siteAuthSettings.userPoolClientId)
    return { ok: true, json: async () => readerViewFor(sources, session ? { username: session.username } : null) }
  }) as unknown as typeof fetch
})

afterEach(() => {
  delete window.__docsReaderView
})

const page = () =>
  render(
    <AuthProvider>
      <RouteGuard>
        <p>Leads API introduction</p>
      </RouteGuard>
    </AuthProvider>
  )

test("signing out in another tab sends this one, still showing a page, to the sign-in page by a full page load (nothing it fetched stays in memory)", async () => {
  const thisTab = page()
  await waitFor(() => expect(global.fetch).toHaveBeenCalledTimes(1))
  expect(screen.getByText('Leads API introduction')).toBeInTheDocument()
  expect(loadAfresh).not.toHaveBeenCalled()

  // The other tab signed out: the cookies every tab shares are gone, and it says so.
  for (const pair of document.cookie.split(';')) document.cookie = `${pair.split('=')[0].trim()}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
  const otherTab = new NodeBroadcastChannel(SESSION_CHANNEL)
  otherTab.postMessage({ type: 'signed-out', tab: 'another tab' })
  otherTab.close()
  await waitFor(() => expect(loadAfresh).toHaveBeenCalledWith('/login?next=%2Fdocs%2Fleads%2Fintro'))
  expect(mockRouter.replace).not.toHaveBeenCalled()
  expect(global.fetch).toHaveBeenCalledTimes(2)
  expect(screen.queryByText('Leads API introduction')).toBeNull()
  thisTab.unmount()
})

test('the tab that signs out announces it, and is not told itself', async () => {
  const { signOutEverywhere } = await import('../../lib/auth/signOutEverywhere')
  const heard: unknown[] = []
  const otherTab = new NodeBroadcastChannel(SESSION_CHANNEL)
  otherTab.onmessage = (event) => heard.push((event as { data: unknown }).data)
  const thisTab = page()
  await waitFor(() => expect(global.fetch).toHaveBeenCalledTimes(1))
  await act(() => signOutEverywhere())
  await waitFor(() => expect(heard).toEqual([{ type: 'signed-out', tab: expect.any(String) }]))
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(global.fetch).toHaveBeenCalledTimes(1)
  otherTab.close()
  thisTab.unmount()
})
