import type { Heading } from 'nextra'
import { PageMarkdownActions } from './PageMarkdownActions'
import { PageSourceLinks } from './PageSourceLinks'

/** The table of contents lists heading levels 2 to 3 only. */
export const TOC_MIN_DEPTH = 2
export const TOC_MAX_DEPTH = 3

export function tocHeadings(toc: Heading[]): Heading[] {
  return toc.filter((heading) => heading.depth >= TOC_MIN_DEPTH && heading.depth <= TOC_MAX_DEPTH)
}

export function TableOfContents({ toc, filePath }: { toc: Heading[]; filePath?: string }) {
  const headings = tocHeadings(toc)
  return (
    <>
      <PageMarkdownActions />
      <PageSourceLinks filePath={filePath} />
      {headings.length > 0 && (
        <div className="site-toc">
          <p className="site-toc-title">On this page</p>
          <ul>
            {headings.map((heading) => (
              <li key={heading.id} className={`site-toc-depth-${heading.depth}`}>
                <a href={`#${heading.id}`}>{heading.value}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  )
}
