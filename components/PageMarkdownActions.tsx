import { useRouter } from 'next/router'
import { useState } from 'react'
import { inSection } from '../lib/access/sectionPaths'
import { CONNECTED_TOOLS_PAGE } from '../lib/aiTools/oauthPaths'
import { useAuth } from '../lib/auth/AuthContext'

type CopyState = 'idle' | 'copied' | 'failed'

/**
 * "Copy page" and "View as Markdown" for a page of a section the reader may open: the page's
 * Markdown (`<route>.md`, written by pipeline/steps/buildMarkdown.ts under the section's path, so
 * the edge applies the section's rule to it). Shown once the authority has named the reader's
 * sections. Beside them, "Connect an AI tool" leads to the AI tools page, where the reader connects
 * their tool to the docs in one step.
 */
export function PageMarkdownActions() {
  const { pathname } = useRouter()
  const { view } = useAuth()
  const [state, setState] = useState<CopyState>('idle')
  if (!view?.sections.some((section) => inSection(pathname, section.id))) return null
  const markdownUrl = `${pathname}.md`
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
