/**
 * Tells the reader's other tabs of the site when they sign out in one. The sign-in cookies are
 * shared, so those tabs' next request to the edge finds no session; but a tab keeps showing what
 * it has already fetched (and opens pages Next has prefetched) until it asks. Told, each asks the
 * authority again and, as a stranger now, goes to the sign-in page. A BroadcastChannel reaches only
 * this origin's tabs of this browser, and carries no name or token.
 */
export const SESSION_CHANNEL = 'docs-session'
/** This tab's mark: a channel delivers to every other channel object of its name, this tab's own listener included. */
const THIS_TAB = Math.random().toString(36).slice(2)

export interface SignedOutMessage {
  type: 'signed-out'
  tab: string
}

export function announceSignedOut(): void {
  if (typeof BroadcastChannel === 'undefined') return
  const channel = new BroadcastChannel(SESSION_CHANNEL)
  channel.postMessage({ type: 'signed-out', tab: THIS_TAB } satisfies SignedOutMessage)
  channel.close()
}

/** Calls `listener` when another tab announces a sign-out (the tab that signs out goes to sign in itself); returns the unsubscribe. */
export function onSignedOutElsewhere(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {}
  const channel = new BroadcastChannel(SESSION_CHANNEL)
  channel.onmessage = (event: MessageEvent) => {
    const message = event.data as Partial<SignedOutMessage> | null
    if (message?.type === 'signed-out' && message.tab !== THIS_TAB) listener()
  }
  return () => channel.close()
}
