import { act, fireEvent, screen, within } from '@testing-library/react'
import ConnectedToolsPage from '../../pages/connected-tools'
import AuthorizePage from '../../pages/authorize'
import accessConfig from '../../access.config'
import { allowedConnectors, connectSettings, type ConnectorId } from '../../lib/aiTools/connectLinks'
import { resetMockRouter } from './helpers/mockNextRouter'
import { READERS, renderAs } from './helpers/readers'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The site's layout around the page: the real Nextra theme, bundled to CommonJS for Jest.
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())
jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(() => Promise.resolve()),
  fetchAuthSession: jest.fn(() => Promise.reject(new Error('offline'))),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))),
}))
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))

// The reader is on a site whose host appears nowhere in the code: every URL on the page must come
// from the origin the page runs on.
const ORIGIN = 'https://docs.reader-site.test'
const MCP_URL = `${ORIGIN}/mcp`
const realLocation = window.location
const shippedConnectors = connectSettings.connectors

beforeEach(() => {
  resetMockRouter({ pathname: '/connected-tools' })
  Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, origin: ORIGIN, assign: jest.fn() } })
  // The reader has no tool connected yet.
  global.fetch = jest.fn(async () => ({ status: 200, ok: true, json: async () => ({ reader: 'leads1', connections: [] }) })) as unknown as typeof fetch
})
afterEach(() => {
  Object.defineProperty(window, 'location', { configurable: true, value: realLocation })
  connectSettings.connectors = shippedConnectors
})

async function renderPage(connectors: ConnectorId[] = []) {
  connectSettings.connectors = connectors
  renderAs(READERS.leads1, <ConnectedToolsPage />)
  await screen.findByText('No AI tool is connected to your account.')
  return within(screen.getByRole('region', { name: 'Connect an AI tool' }))
}

/** What a tool is given by a link: Cursor's base64 config, VS Code's URL-encoded JSON. */
function cursorConfig(href: string) {
  const link = new URL(href)
  expect(`${link.protocol}//${link.host}${link.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install')
  return { name: link.searchParams.get('name'), config: JSON.parse(atob(link.searchParams.get('config') ?? '')) }
}
function vscodeConfig(href: string) {
  expect(href.startsWith('vscode:mcp/install?')).toBe(true)
  return JSON.parse(decodeURIComponent(href.slice('vscode:mcp/install?'.length)))
}

test("shows the site's own MCP URL and the Claude Code command, above the reader's connected tools", async () => {
  const connect = await renderPage()
  expect(connect.getByText(MCP_URL)).toBeInTheDocument()
  expect(connect.getByText(`claude mcp add --transport http platform-docs ${MCP_URL}`)).toBeInTheDocument()
  // How to connect comes first, then the reader's own tools.
  const connectHeading = screen.getByRole('heading', { name: 'Connect an AI tool' })
  const toolsHeading = screen.getByRole('heading', { name: 'Your connected tools' })
  expect(connectHeading.compareDocumentPosition(toolsHeading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
})

test("the Cursor and VS Code install links each give the tool the reader's own /mcp", async () => {
  const connect = await renderPage()
  expect(cursorConfig(connect.getByRole('link', { name: 'Add to Cursor' }).getAttribute('href')!)).toEqual({ name: 'platform-docs', config: { url: MCP_URL } })
  expect(vscodeConfig(connect.getByRole('link', { name: 'Add to VS Code' }).getAttribute('href')!)).toEqual({ name: 'platform-docs', type: 'http', url: MCP_URL })
})

test('the copy buttons put the URL and the command on the clipboard, or say to copy by hand', async () => {
  const writeText = jest.fn(() => Promise.resolve())
  Object.assign(navigator, { clipboard: { writeText } })
  const connect = await renderPage()
  await act(async () => fireEvent.click(connect.getByRole('button', { name: 'Copy the URL' })))
  expect(writeText).toHaveBeenLastCalledWith(MCP_URL)
  expect(connect.getByText('Copied')).toBeInTheDocument()
  await act(async () => fireEvent.click(connect.getByRole('button', { name: 'Copy the command' })))
  expect(writeText).toHaveBeenLastCalledWith(`claude mcp add --transport http platform-docs ${MCP_URL}`)
  // A page without a clipboard (plain http, or a refused permission): the reader copies the shown text.
  Object.assign(navigator, { clipboard: undefined })
  await act(async () => fireEvent.click(connect.getByRole('button', { name: 'Copy the URL' })))
  expect(connect.getByText('Could not copy: select the text and copy it')).toBeInTheDocument()
})

test.each<[string, ConnectorId[], string[]]>([
  ['none allowed', [], []],
  ['claude.ai only', ['claude'], ['claude.ai and Claude Desktop']],
  ['ChatGPT only', ['chatgpt'], ['ChatGPT']],
  ['both', ['claude', 'chatgpt'], ['claude.ai and Claude Desktop', 'ChatGPT']],
])('hosted apps\' connector steps are shown only for the apps the admin allowed: %s', async (_label, connectors, shown) => {
  const connect = await renderPage(connectors)
  const headings = connect.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
  expect(headings.filter((text) => text === 'claude.ai and Claude Desktop' || text === 'ChatGPT')).toEqual(shown)
})

test('which connectors are allowed comes from the redirect URIs the admin listed, as ids only', () => {
  // The shipped access.config.ts allows claude.ai and ChatGPT.
  expect(allowedConnectors(accessConfig.aiTools?.hostedRedirectUris ?? [])).toEqual(['claude', 'chatgpt'])
  expect(allowedConnectors([])).toEqual([])
  expect(allowedConnectors(['https://chatgpt.com/connector_platform_oauth_redirect'])).toEqual(['chatgpt'])
  // Another host named like one (a look-alike domain) allows nothing.
  expect(allowedConnectors(['https://claude.ai.example.com/api/mcp/auth_callback'])).toEqual([])
})

/**
 * The consent page names the tool as it names itself, the host its sign-in goes to, and, for a
 * tool whose id is the address of its description (a Client ID Metadata Document), the host that
 * publishes it: the one part of a self-named "Claude" a reader can check (a review).
 */
describe('the consent page', () => {
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
})
