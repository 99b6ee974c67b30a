import { useEffect } from 'react'
import Router from 'next/router'
import NProgress from 'nprogress'

/** SPEC §9: the bar appears only for a route change slower than this. */
export const PROGRESS_DELAY_MS = 200
export const PROGRESS_OPTIONS = { minimum: 0.08, speed: 200, trickleSpeed: 800, trickleRate: 0.02, showSpinner: false }

/** Shows nprogress for slow client-side route changes only, so fast ones do not flash a bar. */
export function RouteProgress() {
  useEffect(() => {
    NProgress.configure(PROGRESS_OPTIONS as Parameters<typeof NProgress.configure>[0])
    let timer: ReturnType<typeof setTimeout> | undefined
    const start = () => {
      clearTimeout(timer)
      timer = setTimeout(() => NProgress.start(), PROGRESS_DELAY_MS)
    }
    const done = () => {
      clearTimeout(timer)
      NProgress.done()
    }
    Router.events.on('routeChangeStart', start)
    Router.events.on('routeChangeComplete', done)
    Router.events.on('routeChangeError', done)
    return () => {
      clearTimeout(timer)
      Router.events.off('routeChangeStart', start)
      Router.events.off('routeChangeComplete', done)
      Router.events.off('routeChangeError', done)
    }
  }, [])
  return null
}
