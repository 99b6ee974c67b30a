import { useEffect } from 'react'
import Router from 'next/router'

/** Zoom attaches this long after a route change, once the new content has rendered. */
export const ZOOM_DELAY_MS = 1000
export const ZOOM_OPTIONS = { margin: 0, scrollOffset: 40 }
export const ZOOM_SELECTOR = 'main img, article img'

/** Makes content images zoomable on click; medium-zoom loads only once a page has images. */
export function ImageZoom() {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let detach: (() => void) | undefined
    const attach = () => {
      clearTimeout(timer)
      timer = setTimeout(async () => {
        detach?.()
        detach = undefined
        if (!document.querySelector(ZOOM_SELECTOR)) return
        const { default: mediumZoom } = await import('medium-zoom')
        const zoom = mediumZoom(ZOOM_SELECTOR, ZOOM_OPTIONS)
        detach = () => zoom.detach()
      }, ZOOM_DELAY_MS)
    }
    attach()
    Router.events.on('routeChangeComplete', attach)
    return () => {
      clearTimeout(timer)
      detach?.()
      Router.events.off('routeChangeComplete', attach)
    }
  }, [])
  return null
}
