import { useEffect, useState } from 'react'
import Router from 'next/router'
import type NProgressModule from 'nprogress'

/** The bar appears only for a route change slower than this, so quick changes do not flash it. */
export const PROGRESS_DELAY_MS = 200
export const PROGRESS_OPTIONS = { minimum: 0.08, speed: 200, trickleSpeed: 800, trickleRate: 0.02, showSpinner: false }

type NProgress = typeof NProgressModule
let loading: Promise<NProgress> | undefined
/**
 * nprogress loads on first use, not with the page: when a route change starts (the bar waits
 * 200 ms anyway), or once the browser is idle, whichever comes first.
 */
function loadNProgress(): Promise<NProgress> {
  loading ??= import('nprogress').then(({ default: nprogress }) => nprogress)
  return loading
}

/** What a screen reader hears while the bar shows; Next's own route announcer reads the new page's title after. */
export const LOADING_ANNOUNCEMENT = 'Loading page…'

/**
 * Shows nprogress for slow client-side route changes only, so fast ones do not flash a bar. The
 * bar is only drawn; a polite live region says the same in words while it shows. With
 * prefers-reduced-motion the bar does not animate (styles/site.css).
 */
export function RouteProgress() {
  const [loadingShown, setLoadingShown] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    /** The route change the bar is for; a later start or a completion makes an earlier one stale. */
    let change = 0
    const idle = window.requestIdleCallback?.(() => loadNProgress())
    const start = () => {
      clearTimeout(timer)
      const current = ++change
      const nprogress = loadNProgress()
      timer = setTimeout(() => nprogress.then((bar) => {
        if (current !== change) return
        bar.configure(PROGRESS_OPTIONS as Parameters<NProgress['configure']>[0])
        bar.start()
        setLoadingShown(true)
      }), PROGRESS_DELAY_MS)
    }
    const done = () => {
      clearTimeout(timer)
      change++
      setLoadingShown(false)
      loading?.then((bar) => bar.done())
    }
    Router.events.on('routeChangeStart', start)
    Router.events.on('routeChangeComplete', done)
    Router.events.on('routeChangeError', done)
    return () => {
      clearTimeout(timer)
      change++
      if (idle !== undefined) window.cancelIdleCallback?.(idle)
      Router.events.off('routeChangeStart', start)
      Router.events.off('routeChangeComplete', done)
      Router.events.off('routeChangeError', done)
    }
  }, [])
  return (
    <div className="sr-only" role="status" aria-live="polite">
      {loadingShown ? LOADING_ANNOUNCEMENT : ''}
    </div>
  )
}
