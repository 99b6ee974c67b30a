import Router from 'next/router'

/** What Chromium's Network Information API says of the reader's connection (other browsers have none). */
type Connection = { saveData?: boolean; effectiveType?: string }

/** Whether the reader asked to save data (a browser's Data Saver) or is on a 2g connection. */
export function savesData(): boolean {
  const connection = (navigator as Navigator & { connection?: Connection }).connection
  return connection?.saveData === true || /2g/.test(connection?.effectiveType ?? '')
}

/**
 * On such a connection no page is fetched before the reader opens it (SPEC: prefetching is skipped
 * on 2g or data-saver connections). Next skips only a prefetched page's code there, never its data
 * file, which on this site holds the page's text; every prefetch goes through the router's
 * `prefetch` (Next's links, the site's PageLink, Router.prefetch), so it is that one method that waits.
 */
export function skipPrefetchWhenSavingData(): void {
  Router.ready(() => {
    const router = Router.router
    if (!router) return
    const prefetch = router.prefetch.bind(router)
    router.prefetch = (...args: Parameters<typeof prefetch>) => (savesData() ? Promise.resolve() : prefetch(...args))
  })
}
