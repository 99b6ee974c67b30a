/** An AI tool as a reader: the MCP SDK's own client against the site's /mcp, with the reader's ID token. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { signInIdToken } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'

export interface McpAnswer {
  /** What was asked, for messages: `tool {arguments}`. */
  key: string
  isError: boolean
  /** Everything the client received: the text and the structured content, as JSON. */
  body: string
  structured: Record<string, unknown> | undefined
  text: string
}

export interface McpReader {
  call(tool: string, args?: Record<string, unknown>): Promise<McpAnswer>
  /** What the server tells the tool before any call: its name and instructions, and its tools' descriptions and schemas. */
  describe(): Promise<McpAnswer>
  close(): Promise<void>
}

export async function idTokenOf(username: string): Promise<string> {
  return signInIdToken(siteEnv().cognitoUrl, username, PASSWORD)
}

/** A connected client whose requests carry `token` (none: an anonymous tool). */
export async function connectMcp(token: string | null, siteUrl = siteEnv().siteUrl): Promise<McpReader> {
  const client = new Client({ name: 'docs-e2e', version: '1.0.0' })
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` }
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', siteUrl), { requestInit: { headers } }))
  return mcpReaderOf(client)
}

/** A connected client's tools, with every answer in the shape the tests read. */
export function mcpReaderOf(client: Client): McpReader {
  return {
    async call(tool, args = {}) {
      const result = await client.callTool({ name: tool, arguments: args })
      const content = (result.content ?? []) as Array<{ type: string; text?: string }>
      return {
        key: `${tool} ${JSON.stringify(args)}`,
        isError: result.isError === true,
        body: JSON.stringify({ content: result.content, structuredContent: result.structuredContent }),
        structured: result.structuredContent as Record<string, unknown> | undefined,
        text: content.map((part) => part.text ?? '').join('\n'),
      }
    },
    async describe() {
      const described = { server: client.getServerVersion(), instructions: client.getInstructions(), tools: (await client.listTools()).tools }
      const body = JSON.stringify(described)
      return { key: 'initialize and tools/list', isError: false, body, structured: described, text: body }
    },
    close: () => client.close(),
  }
}

export const mcpReaderAs = async (username: string) => connectMcp(await idTokenOf(username))
