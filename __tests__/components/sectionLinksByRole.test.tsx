import { fireEvent, screen, within } from '@testing-library/react'
import { NavbarItems } from '../../components/NavbarItems'
import { SectionCards } from '../../components/SectionCards'
import { SiteFooter } from '../../components/SiteFooter'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { resetMockRouter } from './helpers/mockNextRouter'
import { LOADING, READERS, docsHrefs, renderAs, type ReaderName } from './helpers/readers'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('aws-amplify/auth', () => ({
  getCurrentUser: jest.fn(() => Promise.reject(new Error('no network in tests'))),
  signOut: jest.fn(() => Promise.resolve()),
}))

const LEADS = '/docs/leads/intro'
const INTERNAL = '/docs/internal/intro'
const SUPPORT = '/docs/support-twilio/intro'

/** The sections each shipped reader may open, in navbar order. */
const allowedSections: Record<ReaderName, string[]> = {
  admin: [LEADS, INTERNAL, SUPPORT],
  leads1: [LEADS],
  internal1: [INTERNAL],
  support1: [SUPPORT],
  outsider: [],
  anonymous: [],
}
const readers = Object.keys(allowedSections) as ReaderName[]

beforeEach(() => resetMockRouter({ pathname: '/', asPath: '/' }))

test('the sections are the SPEC ones, entered at their intro pages', () => {
  expect(SECTIONS.map((section) => section.href)).toEqual([LEADS, INTERNAL, SUPPORT])
})

describe.each(readers)('as %s', (reader) => {
  test('the home page cards link only to the sections the reader may open', () => {
    renderAs(READERS[reader], <SectionCards />)
    expect(docsHrefs()).toEqual(allowedSections[reader])
    for (const section of SECTIONS) {
      const shown = allowedSections[reader].includes(section.href)
      expect(screen.queryByText(section.title) !== null).toBe(shown)
      expect(screen.queryByText(section.description) !== null).toBe(shown)
    }
  })

  test('the footer links only to the sections the reader may open', () => {
    renderAs(READERS[reader], <SiteFooter />)
    expect(docsHrefs()).toEqual(allowedSections[reader])
    const footer = screen.getByRole('navigation', { name: 'Footer' })
    expect(within(footer).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
    expect(within(footer).queryByText('Docs') !== null).toBe(allowedSections[reader].length > 0)
  })

  test('the navbar links only to sections the reader may open, even with its menus open', () => {
    renderAs(READERS[reader], <NavbarItems />)
    fireEvent.click(screen.getByRole('button', { name: 'Docs version: Next' }))
    fireEvent.click(screen.getByRole('button', { name: 'Language: English' }))
    const hrefs = docsHrefs()
    for (const href of hrefs) expect(allowedSections[reader]).toContain(href)
    // The docs version leads to the version's main doc (leads/intro) if the reader has it,
    // else to the reader's first section, else home.
    const version = screen.getByRole('menuitem', { name: 'Next' })
    expect(version).toHaveAttribute('href', allowedSections[reader].includes(LEADS) ? LEADS : allowedSections[reader][0] ?? '/')
  })
})

describe('section links while the reader is still loading', () => {
  test('no section is linked before the reader is known', () => {
    renderAs(LOADING, <SectionCards />)
    renderAs(LOADING, <SiteFooter />)
    renderAs(LOADING, <NavbarItems />)
    fireEvent.click(screen.getByRole('button', { name: 'Docs version: Next' }))
    expect(docsHrefs()).toEqual([])
  })

  test('the home page does not tell a reader still loading that they have no sections', () => {
    renderAs(LOADING, <SectionCards />)
    expect(screen.queryByText(/no documentation sections yet/i)).toBeNull()
    expect(screen.getByRole('list')).toHaveAttribute('aria-busy', 'true')
  })
})

describe('footer and home page details', () => {
  test("the footer has the logo, drawn by the site's code (no file a writer could replace; the stylesheet colours it for light and dark), and the copyright line", () => {
    renderAs(READERS.leads1, <SiteFooter />)
    const logo = screen.getByRole('img', { name: 'Platform Docs' })
    expect([logo.tagName, logo.getAttribute('src'), logo.textContent]).toEqual(['svg', null, 'Platform Docs'])
    expect(logo.querySelector('.site-logo-mark')).not.toBeNull()
    expect(screen.getByText(/Copyright © 2025 Platform Docs/)).toBeInTheDocument()
  })

  test('a signed-in reader with no section is told to ask for access instead of seeing cards', () => {
    renderAs(READERS.outsider, <SectionCards />)
    expect(screen.getByText(/no documentation sections yet/i)).toBeInTheDocument()
    expect(screen.queryByRole('link')).toBeNull()
  })

  test('the language menu keeps the reader on the page they are reading', () => {
    resetMockRouter({ pathname: '/docs/leads/intro', asPath: '/docs/leads/intro#auth' })
    renderAs(READERS.leads1, <NavbarItems />)
    fireEvent.click(screen.getByRole('button', { name: 'Language: English' }))
    expect(screen.getByRole('menuitem', { name: 'English' })).toHaveAttribute('href', '/docs/leads/intro#auth')
  })

  test('the navbar shows who is signed in, and nobody when no one is', () => {
    const { rerenderAs } = renderAs(READERS.support1, <NavbarItems />)
    expect(screen.getByText('support1')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument()
    rerenderAs(READERS.anonymous)
    expect(screen.queryByText('support1')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull()
  })
})
