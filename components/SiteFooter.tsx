import { PageLink } from './PageLink'
import { SiteLogo } from './SiteLogo'
import { useReadableSections } from './useReadableSections'
import { SITE_NAME } from '../lib/siteName'

export const COPYRIGHT_YEAR = 2025

/** Link columns, the logo in light and dark, and the copyright line. */
export function SiteFooter() {
  const sections = useReadableSections()
  return (
    <div className="site-footer">
      <nav className="site-footer-columns" aria-label="Footer">
        {sections.length > 0 && (
          <div>
            <p className="site-footer-title">Docs</p>
            <ul>
              {sections.map((section) => (
                <li key={section.id}>
                  <PageLink href={section.href} prefetch={false}>
                    {section.title}
                  </PageLink>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div>
          <p className="site-footer-title">Help</p>
          <ul>
            <li>
              <a href="mailto:docs-team@example.com">Contact the docs team</a>
            </li>
            <li>
              <PageLink href="/" prefetch={false}>
                Home
              </PageLink>
            </li>
          </ul>
        </div>
      </nav>
      <div className="site-footer-bottom">
        <SiteLogo height={24} />
        <p>Copyright © {COPYRIGHT_YEAR} {SITE_NAME}. Internal use only.</p>
      </div>
    </div>
  )
}
