import { useState } from 'react'
import { DOCS_ROOT, inSection } from '../lib/access/sectionPaths'
import { CONNECTED_TOOLS_PAGE } from '../lib/aiTools/oauthPaths'
import { useAuth } from '../lib/auth/AuthContext'
import { usePagePath } from '../lib/navigation/pagePath'
import { markdownKeyOf } from '../lib/pathFormats'

type CopyState = 'idle' | 'copied' | 'failed'

/**
 * "Copy page" and "View as Markdown" for a docs page the reader has open: the page's Markdown
 * (`<route>.md`, written by pipeline/steps/buildMarkdown.ts beside the page, so the edge applies
 * the page's rule to it). Shown on the docs' root page, which the edge served only to a reader who
 * may open it, and on the pages of the sections the authority has named as the reader's. Beside them, "Connect an AI tool" leads to the AI tools page, where the reader connects
 * their tool to the docs in one step.
 */
export function PageMarkdownActions() {
  const pathname = usePagePath()
  const { view } = useAuth()
  const [state, setState] = useState<CopyState>('idle')
  if (!view || (pathname !== DOCS_ROOT && !view.sections.some((section) => inSection(pathname, section.id)))) return null
  const markdownUrl = markdownKeyOf(pathname)
  const copy = async () => {
    try {
      const response = await fetch(markdownUrl, { credentials: 'same-origin' })
      if (!response.ok) throw new Error(`${markdownUrl} answered ${response.status}`)
      await navigator.clipboard.writeText(await response.text())
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  return (
    <div className="page-markdown-actions">
      <button type="button" onClick={copy}>
        Copy page
      </button>
      <a href={markdownUrl}>View as Markdown</a>
      <a href={CONNECTED_TOOLS_PAGE}>Connect an AI tool</a>
      <span role="status" className="page-markdown-status">
        {state === 'copied' ? 'Copied as Markdown' : state === 'failed' ? 'Could not copy the page' : ''}
      </span>
    </div>
  )
}
