import { useEffect, useState } from 'react'
import { claudeCodeCommand, connectSettings, cursorInstallLink, mcpUrlOf, vscodeInstallLink } from '../lib/aiTools/connectLinks'

type CopyState = 'idle' | 'copied' | 'failed'

/**
 * A line to paste into a tool, with a copy button. Without a clipboard (a page on plain http
 * other than localhost, or a refused permission) it says to copy the shown text by hand.
 */
function CopyLine({ text, what }: { text: string; what: string }) {
  const [state, setState] = useState<CopyState>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  return (
    <p className="connect-copy-line">
      <code>{text}</code>
      <button type="button" onClick={copy}>
        Copy {what}
      </button>
      <span role="status" className="connect-copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text and copy it' : ''}
      </span>
    </p>
  )
}

/**
 * How to connect an AI tool to the docs, in one step from the site: its MCP URL, the Claude Code
 * command, one-click installs for Cursor and VS Code, and the connector steps for the hosted apps
 * the admin allowed. Everything is built from the origin the reader is on, once the page runs
 * (the static HTML knows no host).
 */
export function ConnectAiTool() {
  const [origin, setOrigin] = useState<string | null>(null)
  useEffect(() => setOrigin(window.location.origin), [])
  if (origin === null) return null
  const url = mcpUrlOf(origin)
  const { connectors } = connectSettings
  return (
    <section className="connect-ai-tool" aria-labelledby="connect-ai-tool">
      <h2 id="connect-ai-tool">Connect an AI tool</h2>
      <p>
        Your tool reads the docs you can read, and nothing else. The first time it connects, it opens this site&apos;s sign-in:
        sign in as you always do, then allow the tool.
      </p>
      <h3>The docs&apos; MCP server</h3>
      <CopyLine text={url} what="the URL" />
      <h3>Claude Code</h3>
      <CopyLine text={claudeCodeCommand(url)} what="the command" />
      <p>
        Then run <code>/mcp</code> in Claude Code to sign in.
      </p>
      <h3>Cursor and VS Code</h3>
      <p className="connect-install-links">
        <a href={cursorInstallLink(url)}>Add to Cursor</a>
        <a href={vscodeInstallLink(url)}>Add to VS Code</a>
      </p>
      {connectors.includes('claude') ? (
        <>
          <h3>claude.ai and Claude Desktop</h3>
          <ol>
            <li>In Claude, open Settings, Connectors, and choose Add custom connector.</li>
            <li>Paste the MCP server&apos;s URL above, and add the connector.</li>
            <li>Choose Connect: this site&apos;s sign-in opens; sign in and allow Claude.</li>
          </ol>
        </>
      ) : null}
      {connectors.includes('chatgpt') ? (
        <>
          <h3>ChatGPT</h3>
          <ol>
            <li>In ChatGPT, open Settings, Apps (Connectors on some plans), Advanced settings, and turn on Developer mode.</li>
            <li>Back in Apps, choose Create, with the MCP server&apos;s URL above and OAuth as its authentication.</li>
            <li>Connect it: this site&apos;s sign-in opens; sign in and allow ChatGPT.</li>
          </ol>
        </>
      ) : null}
    </section>
  )
}
