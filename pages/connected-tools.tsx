import Head from 'next/head'
import { useCallback, useEffect, useState } from 'react'
import { ConnectAiTool } from '../components/ConnectAiTool'
import { SiteChrome } from '../components/SiteChrome'
import themeConfig from '../theme.config'
import { CONNECTED_TOOLS_PAGE } from '../lib/aiTools/oauthPaths'
import { NotSignedInError, connections, revokeConnections, type Connection } from '../lib/aiTools/oauthRequests'
import { SITE_NAME } from '../lib/siteName'
import { signInUrl } from '../lib/pathFormats'

/**
 * How to connect an AI tool in one step, then the reader's AI tools that may read the docs as
 * them, each with a way to disconnect it.
 */
export default function ConnectedToolsPage() {
  const [listed, setListed] = useState<Connection[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    connections().then(
      (answer) => setListed(answer.connections),
      (error: unknown) => {
        if (error instanceof NotSignedInError) window.location.assign(signInUrl(CONNECTED_TOOLS_PAGE))
        else setProblem(error instanceof Error ? error.message : String(error))
      }
    )
  }, [])
  useEffect(load, [load])

  const revoke = async (grantId?: string) => {
    setBusy(true)
    try {
      await revokeConnections(grantId)
      load()
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Head>
        <title>{`AI tools – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="AI tools" themeConfig={themeConfig}>
        <main id="reach-skip-nav" className="status-page">
          <h1>AI tools</h1>
          <ConnectAiTool />
          <h2>Your connected tools</h2>
          {problem ? <p role="alert">{problem}</p> : null}
          {listed === null ? (
            <p role="status">Loading...</p>
          ) : listed.length === 0 ? (
            <p>No AI tool is connected to your account.</p>
          ) : (
            <>
              <ul className="connected-tools">
                {listed.map((connection) => (
                  <li key={connection.grantId}>
                    <strong>{connection.client}</strong>
                    {connection.iat ? ` (connected ${new Date(connection.iat * 1000).toISOString().slice(0, 10)})` : ''}{' '}
                    <button type="button" onClick={() => revoke(connection.grantId)} disabled={busy}>
                      Disconnect
                    </button>
                  </li>
                ))}
              </ul>
              <p className="status-page-actions">
                <button type="button" onClick={() => revoke()} disabled={busy}>
                  Disconnect every tool
                </button>
              </p>
            </>
          )}
        </main>
      </SiteChrome>
    </>
  )
}
