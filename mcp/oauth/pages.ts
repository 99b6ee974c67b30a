/**
 * What the authorization server itself shows a person: an error page, plain and self-contained
 * (no script, no style), for a sign-in request it refuses. It never redirects such a request: a
 * redirect would hand the refusal, or the reader, to an address nobody allowed.
 */
import { SITE_NAME } from '../../lib/siteName'

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

export function errorPage(problem: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AI tool sign-in refused – ${SITE_NAME}</title></head><body>
<main><h1>This AI tool cannot sign in to ${SITE_NAME}</h1>
<p>${escape(problem)}</p>
<p>Start the sign-in again from your AI tool. If it keeps failing, tell the docs team which tool you use; hosted apps must be allowed by the site's admin.</p>
<p><a href="/">Go to the docs</a></p></main></body></html>`
}
