/**
 * How a reader connects an AI tool from the site (pages/connected-tools.tsx): the site's own MCP
 * URL, the Claude Code command and the one-click install links, all built from the origin the
 * reader is on (never a host fixed at build time), and which hosted apps' connectors the admin
 * allowed. Runs in the browser, so it holds no access data: the connectors are the admin's public
 * tool settings, baked in as two ids.
 */

/** Where the site serves its MCP server (mcp/mcpHandler.ts answers it; the browser imports this module, not that one). */
export const MCP_PATH = '/mcp'
/** The name tools list the server under (mcp/mcpHandler.ts SERVER_INFO.name). */
export const MCP_SERVER_NAME = 'platform-docs'

/** The site's MCP URL on `origin` (the reader's window.location.origin). */
export const mcpUrlOf = (origin: string) => `${origin}${MCP_PATH}`

/** Claude Code's command to add the server (its HTTP transport signs in with OAuth on first use). */
export const claudeCodeCommand = (mcpUrl: string, name = MCP_SERVER_NAME) => `claude mcp add --transport http ${name} ${mcpUrl}`

/**
 * Cursor's install link (https://cursor.com/docs/mcp/install-links):
 * `cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of the server's
 * mcp.json entry>`. The base64 is percent-encoded too: its `+` would read as a space in a query.
 */
export const cursorInstallLink = (mcpUrl: string, name = MCP_SERVER_NAME) =>
  `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(btoa(JSON.stringify({ url: mcpUrl })))}`

/**
 * VS Code's install link (https://code.visualstudio.com/docs/copilot/guides/mcp-developer-guide,
 * "MCP URL handler"): `vscode:mcp/install?` and the URL-encoded JSON that `code --add-mcp` takes.
 */
export const vscodeInstallLink = (mcpUrl: string, name = MCP_SERVER_NAME) =>
  `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, type: 'http', url: mcpUrl }))}`

/** The hosted AI apps whose connectors the AI tools page can explain. */
export type ConnectorId = 'claude' | 'chatgpt'

/** Each hosted app by the hosts its sign-in redirects to (access.config.ts aiTools.hostedRedirectUris). */
const CONNECTOR_HOSTS: Record<ConnectorId, readonly string[]> = {
  claude: ['claude.ai', 'claude.com'],
  chatgpt: ['chatgpt.com', 'chat.openai.com'],
}

/**
 * The hosted apps the admin allowed, from aiTools.hostedRedirectUris, at build time
 * (next.config.ts inlines the ids as DOCS_AI_CONNECTORS). An app is allowed when one of its
 * redirect URIs is listed; the authorization server still checks each URI exactly.
 */
export function allowedConnectors(hostedRedirectUris: readonly string[]): ConnectorId[] {
  const hosts = hostedRedirectUris.flatMap((uri) => {
    try {
      return [new URL(uri).hostname]
    } catch {
      return []
    }
  })
  return (Object.keys(CONNECTOR_HOSTS) as ConnectorId[]).filter((id) => CONNECTOR_HOSTS[id].some((host) => hosts.includes(host)))
}

/** The connectors this build allows (next.config.ts inlines DOCS_AI_CONNECTORS; tests set the list). */
export const connectSettings: { connectors: ConnectorId[] } = {
  connectors: (process.env.DOCS_AI_CONNECTORS ?? '').split(',').filter((id): id is ConnectorId => id in CONNECTOR_HOSTS),
}
