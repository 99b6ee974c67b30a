/**
 * Tells the reader's other tabs of the site when they sign out in one. The sign-in cookies are
 * shared, so those tabs' next request to the edge finds no session; but a tab keeps showing what
 * it has already fetched (and opens pages Next has prefetched) until it asks. Told, each asks the
 * authority again and, as a stranger now, goes to the sign-in page. A BroadcastChannel reaches only
 * this origin's tabs of this browser, and carries no name or token.
 */
const CHANNEL = 'docs-session'
const SIGNED_OUT = 'signed-out'

export function announceSignedOut(): void {
  if (typeof BroadcastChannel === 'undefined') return
  const channel = new BroadcastChannel(CHANNEL)
  channel.postMessage(SIGNED_OUT)
  channel.close()
}

/** Calls `listener` when another tab announces a sign-out; returns the unsubscribe. */
export function onSignedOutElsewhere(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {}
  const channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent) => {
    if (event.data === SIGNED_OUT) listener()
  }
  return () => channel.close()
}
