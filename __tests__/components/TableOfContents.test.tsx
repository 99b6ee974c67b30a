import { render, screen, within } from '@testing-library/react'
import type { Heading } from 'nextra'
import { TableOfContents } from '../../components/TableOfContents'
import { resetMockRouter } from './helpers/mockNextRouter'
import { READERS, renderAs } from './helpers/readers'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
beforeEach(() => resetMockRouter({ pathname: '/docs/leads/intro' }))

const toc: Heading[] = [
  { depth: 2, value: 'Authentication', id: 'authentication' },
  { depth: 3, value: 'API keys', id: 'api-keys' },
  { depth: 4, value: 'Rotating keys', id: 'rotating-keys' },
  { depth: 5, value: 'Key format', id: 'key-format' },
  { depth: 2, value: 'Errors', id: 'errors' },
  { depth: 6, value: 'Error codes', id: 'error-codes' },
]

describe('TableOfContents: heading levels 2 to 3 only', () => {
  test('lists only depth 2 and 3 headings, in order, as links to their anchors', () => {
    render(<TableOfContents toc={toc} />)
    const links = screen.getAllByRole('link')
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Authentication', '#authentication'],
      ['API keys', '#api-keys'],
      ['Errors', '#errors'],
    ])
    expect(screen.queryByText('Rotating keys')).toBeNull()
    expect(screen.queryByText('Key format')).toBeNull()
    expect(screen.queryByText('Error codes')).toBeNull()
    expect(screen.getByText('On this page')).toBeInTheDocument()
  })

  test('marks each entry with its depth, so level 3 is indented under level 2', () => {
    render(<TableOfContents toc={toc} />)
    const items = screen.getAllByRole('listitem')
    expect(items.map((item) => item.className)).toEqual(['site-toc-depth-2', 'site-toc-depth-3', 'site-toc-depth-2'])
    expect(within(items[1]).getByRole('link', { name: 'API keys' })).toBeInTheDocument()
  })

  test('renders nothing for a page without headings', () => {
    const { container } = render(<TableOfContents toc={[]} />)
    expect(container).toBeEmptyDOMElement()
  })

  test('renders nothing when every heading is deeper than level 3', () => {
    const { container } = render(
      <TableOfContents
        toc={[
          { depth: 4, value: 'Deep', id: 'deep' },
          { depth: 5, value: 'Deeper', id: 'deeper' },
        ]}
      />
    )
    expect(container).toBeEmptyDOMElement()
    expect(screen.queryByText('On this page')).toBeNull()
  })
})

describe('Copy page and View as Markdown', () => {
  test("a reader of the page's section gets both, pointing at the page's Markdown", () => {
    renderAs(READERS.leads1, <TableOfContents toc={toc} />)
    expect(screen.getByRole('link', { name: 'View as Markdown' })).toHaveAttribute('href', '/docs/leads/intro.md')
    expect(screen.getByRole('button', { name: 'Copy page' })).toBeInTheDocument()
    // And the way to connect the reader's AI tool to the docs, on the AI tools page.
    expect(screen.getByRole('link', { name: 'Connect an AI tool' })).toHaveAttribute('href', '/connected-tools')
  })

  test("the docs' root page offers its Markdown too (the edge served the page, so the reader may open it)", () => {
    resetMockRouter({ pathname: '/docs' })
    renderAs(READERS.admin, <TableOfContents toc={toc} />)
    expect(screen.getByRole('link', { name: 'View as Markdown' })).toHaveAttribute('href', '/docs.md')
    expect(screen.getByRole('link', { name: 'Connect an AI tool' })).toHaveAttribute('href', '/connected-tools')
  })

  test('nothing is offered before the reader is known, or outside the reader\'s sections', () => {
    render(<TableOfContents toc={toc} />)
    expect(screen.queryByRole('button', { name: 'Copy page' })).toBeNull()
    resetMockRouter({ pathname: '/' })
    renderAs(READERS.admin, <TableOfContents toc={toc} />)
    expect(screen.queryByRole('button', { name: 'Copy page' })).toBeNull()
  })

  test('Copy page puts the Markdown the site serves on the clipboard, and says so', async () => {
    const writeText = jest.fn(() => Promise.resolve())
    Object.assign(navigator, { clipboard: { writeText } })
    global.fetch = jest.fn(async () => ({ ok: true, text: async () => '# Leads API introduction\n' })) as unknown as typeof fetch
    renderAs(READERS.leads1, <TableOfContents toc={toc} />)
    screen.getByRole('button', { name: 'Copy page' }).click()
    expect(await screen.findByText('Copied as Markdown')).toBeInTheDocument()
    expect(global.fetch).toHaveBeenCalledWith('/docs/leads/intro.md', { credentials: 'same-origin' })
    expect(writeText).toHaveBeenCalledWith('# Leads API introduction\n')
  })
})
