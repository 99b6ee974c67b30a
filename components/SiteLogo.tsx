import { SITE_NAME } from '../lib/siteName'

/**
 * The site's logo, drawn by the site's own code, with its colours in the stylesheet (light and dark
 * variants follow the colour mode). Not a file under public/: that folder is the writers', and the
 * logo is drawn outside any page, for anonymous visitors too (the sign-in page), which no writer's
 * file may reach.
 */
export function SiteLogo({ height = 28 }: { height?: number }) {
  return (
    <svg className="site-logo" role="img" aria-label={SITE_NAME} viewBox="0 0 160 32" height={height} width={height * 5}>
      <rect className="site-logo-mark" x="2" y="4" width="24" height="24" rx="6" />
      <path d={MARK_LINES} stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <text className="site-logo-name" x="34" y="22" fontFamily="system-ui,sans-serif" fontSize="16" fontWeight="700">
        {SITE_NAME}
      </text>
    </svg>
  )
}

const MARK_LINES = 'M9 11h10M9 16h10M9 21h6'

/** The browser tab's icon, the logo's mark, as a data address: no file, so nothing a writer could replace. */
export const SITE_ICON = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28" height="28" rx="7" fill="#2563eb"/><path d="M10 11h12M10 16h12M10 21h7" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>`
)}`
