/**
 * "Edit this page" and "Report a problem", each built from one setting given at build time
 * (docs/deploy.md, "CDK settings", says where). Unset, the link is not shown.
 * - DOCS_SOURCE_URL: where the repository's files are browsed, e.g.
 *   https://github.com/company/docs/blob/main; a page's link is that plus its file's path.
 * - DOCS_REPORT_URL: the issue tracker or a mail address, with `{path}` where the page's path goes,
 *   e.g. https://github.com/company/docs/issues/new?title=Problem%20on%20{path} or
 *   mailto:docs@example.com?subject=Problem%20on%20{path}.
 */
export interface SiteLinkSettings {
  sourceUrl?: string
  reportUrl?: string
}

export class SiteLinkError extends Error {
  constructor(message: string) {
    super(`site links: ${message}`)
    this.name = 'SiteLinkError'
  }
}

/** Checks the settings once, at build time (next.config.ts), so a wrong one fails the build. */
export function checkSiteLinks(settings: SiteLinkSettings): SiteLinkSettings {
  if (settings.sourceUrl && !/^https:\/\/[^\s]+[^/]$/.test(settings.sourceUrl)) {
    throw new SiteLinkError(`DOCS_SOURCE_URL "${settings.sourceUrl}" must be an https URL without a trailing slash`)
  }
  if (settings.reportUrl && (!/^(https:\/\/|mailto:)\S+$/.test(settings.reportUrl) || !settings.reportUrl.includes('{path}'))) {
    throw new SiteLinkError(`DOCS_REPORT_URL "${settings.reportUrl}" must be an https or mailto URL with {path} where the page's path goes`)
  }
  return settings
}

/** The settings this build was made with (next.config.ts inlines them). */
export const siteLinks: SiteLinkSettings = { sourceUrl: process.env.DOCS_SOURCE_URL || undefined, reportUrl: process.env.DOCS_REPORT_URL || undefined }

/** The page's source in the repository (its file, relative to the project: `content/docs/…`). */
export function editUrlFor(filePath: string, settings: SiteLinkSettings = siteLinks): string | null {
  if (!settings.sourceUrl) return null
  return `${settings.sourceUrl}/${filePath}`
}

export function reportUrlFor(path: string, settings: SiteLinkSettings = siteLinks): string | null {
  if (!settings.reportUrl) return null
  return settings.reportUrl.replaceAll('{path}', encodeURIComponent(path))
}
