/**
 * `/llms.txt` at the site's root, as the llmstxt.org convention expects it, written per reader by
 * the authority like the reader view: it lists the llms.txt of each audience the reader holds, so it
 * names nothing they may not open. Each of those lists its audience's pages and the parts of its
 * full text (lib/aiTools/llmsFiles.ts), which lie beside it under the same rule. A visitor who is
 * not signed in gets the public one: the public pages' files, if any, and where to sign in.
 */
import type { AudienceSummary } from '../lib/access/readerView'
import type { AccessUser } from '../lib/access/types'
import { SITE_NAME } from '../lib/siteName'

export function rootLlmsTxt(held: readonly AudienceSummary[], user: AccessUser): string {
  const listed = held.filter((audience) => audience.llms)
  // Parts of one section (pages finer rules gave the reader) share its title: each is told apart by the path its rule governs, which the reader may open.
  const shared = new Set(listed.map((audience) => audience.title).filter((title, index, titles) => titles.indexOf(title) !== index))
  const label = (audience: AudienceSummary) => (shared.has(audience.title) ? `${audience.title} (${audience.governedBy})` : audience.title)
  const lines = listed.map((audience) => `- [${label(audience)}](${audience.llms}): its pages, each linked to its Markdown, and its full text in parts`)
  const summary =
    user === null
      ? '> Internal engineering and support documentation. Sign in at /login to read it; AI tools connect at /mcp.'
      : `> Internal engineering and support documentation: the parts that ${user.username} may read. AI tools can also search and read them at /mcp.`
  return `# ${SITE_NAME}\n\n${summary}\n${lines.length ? `\n## Docs\n\n${lines.join('\n')}\n` : ''}`
}
