/**
 * The file in `out/` that a request path serves, or null when the path cannot be read safely.
 *
 * Page routes (no extension, or `.html`) become their page's HTML file (./pageFiles.ts), named by
 * exactly the route that `normalisePath` gives the rules; other files keep their case (hashed chunk names
 * are mixed-case). The edge and the local server decide on this key and then serve this key,
 * so what is decided and what is served can never differ.
 */
import { hasCanonicalShape, normalisePath } from './normalisePath'
import { pageHtmlFile } from './pageFiles'

export function objectKeyFor(requestPath: string): string | null {
  const route = normalisePath(requestPath)
  if (route === null) return null
  // Most keys (the build's, a browser's) are spelt canonically: their segments are themselves.
  if (hasCanonicalShape(requestPath)) {
    const last = requestPath.slice(requestPath.lastIndexOf('/') + 1)
    return !last.includes('.') || /\.html$/i.test(last) ? pageHtmlFile(route) : requestPath
  }
  const rawPath = requestPath.split(/[?#]/, 1)[0]
  const segments: string[] = []
  for (const segment of decodeURIComponent(rawPath).split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  const last = segments[segments.length - 1] ?? ''
  const isPage = !last.includes('.') || /\.html$/i.test(last)
  if (isPage) return pageHtmlFile(route)
  return '/' + segments.join('/')
}
