import { render, screen } from '@testing-library/react'
import { PageSourceLinks } from '../../components/PageSourceLinks'
import { checkSiteLinks, editUrlFor, reportUrlFor, siteLinks } from '../../lib/siteLinks'
import { resetMockRouter } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))

afterEach(() => {
  delete siteLinks.sourceUrl
  delete siteLinks.reportUrl
})

test('unset: no link at all', () => {
  resetMockRouter({ pathname: '/docs/leads/intro', asPath: '/docs/leads/intro' })
  const { container } = render(<PageSourceLinks filePath="content/docs/leads/intro.mdx" />)
  expect(container).toBeEmptyDOMElement()
})

test("set: the page's source file in content/ and a problem report with the page's path", () => {
  siteLinks.sourceUrl = 'https://github.com/company/docs/blob/main'
  siteLinks.reportUrl = 'mailto:docs@example.com?subject=Problem%20on%20{path}'
  resetMockRouter({ pathname: '/docs/leads/intro', asPath: '/docs/leads/intro#auth' })
  render(<PageSourceLinks filePath="content/docs/leads/intro.mdx" />)
  expect(screen.getByRole('link', { name: 'Edit this page' })).toHaveAttribute('href', 'https://github.com/company/docs/blob/main/content/docs/leads/intro.mdx')
  expect(screen.getByRole('link', { name: 'Report a problem' })).toHaveAttribute('href', 'mailto:docs@example.com?subject=Problem%20on%20%2Fdocs%2Fleads%2Fintro')
})

test('each link stands alone, and a wrong setting fails the build with its name', () => {
  expect(editUrlFor('content/index.mdx', { sourceUrl: 'https://git.example.com/docs' })).toBe('https://git.example.com/docs/content/index.mdx')
  expect(reportUrlFor('/x', { sourceUrl: 'https://git.example.com/docs' })).toBeNull()
  expect(() => checkSiteLinks({ sourceUrl: 'http://git.example.com/docs/' })).toThrow('DOCS_SOURCE_URL "http://git.example.com/docs/" must be an https URL')
  expect(() => checkSiteLinks({ reportUrl: 'https://tracker.example.com/new' })).toThrow('with {path} where the page\'s path goes')
})
