import Head from 'next/head'
import { useRouter } from 'next/router'
import { useEffect, useState } from 'react'
import { SiteChrome } from '../components/SiteChrome'
import themeConfig from '../theme.config'
import { CONSENT_PAGE } from '../lib/aiTools/oauthPaths'
import { NotSignedInError, consentRequest, decide, type ConsentRequest } from '../lib/aiTools/oauthRequests'
import { SITE_NAME } from '../lib/siteName'
import { signInUrl } from '../lib/pathFormats'

/**
 * The host that publishes a tool's description, when its id is that description's address (a
 * Client ID Metadata Document): unlike the name the tool gives itself, something a reader can check.
 */
function publisherOf(clientId: string | undefined): string | null {
  if (!clientId?.startsWith('https://')) return null
  try {
    return new URL(clientId).host
  } catch {
    return null
  }
}

/**
 * Where a reader allows or denies an AI tool that asks to sign in as them (mcp/oauth/). It names
 * the tool and the host its sign-in goes to; the decision goes to the authorization server with
 * the reader's own sign-in cookies, which alone prove who the reader is.
 */
export default function AuthorizePage() {
  const router = useRouter()
  const uid = typeof router.query.uid === 'string' ? router.query.uid : null
  const [request, setRequest] = useState<ConsentRequest | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!router.isReady) return
    if (!uid) return setProblem('This page needs a sign-in request from an AI tool. Start the sign-in from your tool.')
    consentRequest(uid).then(setRequest, (error: unknown) => {
      if (error instanceof NotSignedInError) window.location.assign(signInUrl(`${CONSENT_PAGE}?uid=${uid}`))
      else setProblem(error instanceof Error ? error.message : String(error))
    })
  }, [router.isReady, uid])

  const answer = async (decision: 'allow' | 'deny') => {
    if (!uid) return
    setBusy(true)
    try {
      window.location.assign(await decide(uid, decision))
    } catch (error) {
      setBusy(false)
      setProblem(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <>
      <Head>
        <title>{`Connect an AI tool – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="Connect an AI tool" themeConfig={themeConfig}>
        <main id="reach-skip-nav" className="status-page">
          <h1>Connect an AI tool</h1>
          {problem ? (
            <p role="alert">{problem}</p>
          ) : request === null ? (
            <p role="status">Loading...</p>
          ) : (
            <>
              <p>
                <strong>{request.client}</strong> (the name the tool gives itself
                {publisherOf(request.clientId) ? (
                  <>
                    ; its description is published at <code>{publisherOf(request.clientId)}</code>
                  </>
                ) : null}
                ) wants to sign in to the docs as you,{' '}
                <strong>{request.reader}</strong>. It reads the docs you can read, and nothing else.
              </p>
              {request.redirectHost ? (
                <p>
                  Your sign-in goes to <code>{request.redirectHost}</code>. Allow only a tool you started yourself.
                </p>
              ) : null}
              <p className="status-page-actions">
                <button type="button" onClick={() => answer('allow')} disabled={busy}>
                  Allow
                </button>
                <button type="button" onClick={() => answer('deny')} disabled={busy}>
                  Deny
                </button>
              </p>
            </>
          )}
        </main>
      </SiteChrome>
    </>
  )
}
