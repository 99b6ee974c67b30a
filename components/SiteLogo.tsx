import { SITE_CHROME_FILES } from '../lib/pathFormats'
import { SITE_NAME } from '../lib/siteName'
/** The logo in its light and dark variants; CSS shows the one that matches the colour mode. */
export function SiteLogo({ height = 28 }: { height?: number }) {
  return (
    <span className="site-logo">
      <img className="site-logo-light" src={SITE_CHROME_FILES.logo} alt={SITE_NAME} height={height} width={height * 5} />
      <img className="site-logo-dark" src={SITE_CHROME_FILES.logoDark} alt={SITE_NAME} height={height} width={height * 5} />
    </span>
  )
}
