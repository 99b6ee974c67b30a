import { fireEvent, render, screen } from '@testing-library/react'
import { NavbarDropdown } from '../../components/NavbarDropdown'

const items = [
  { label: 'Next', href: '/docs/leads/intro', active: true },
  { label: 'Older', href: '/docs/old' },
]

function renderDropdown() {
  render(
    <>
      <NavbarDropdown label="Next" purpose="Docs version" items={items} />
      <p>Elsewhere</p>
    </>
  )
  return screen.getByRole('button', { name: 'Docs version: Next' })
}

describe('NavbarDropdown', () => {
  test('is closed until pressed, then lists its items with the active one marked', () => {
    const button = renderDropdown()
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('menu')).toBeNull()
    fireEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    const entries = screen.getAllByRole('menuitem')
    expect(entries.map((entry) => [entry.textContent, entry.getAttribute('href'), entry.getAttribute('aria-current')])).toEqual([
      ['Next', '/docs/leads/intro', 'true'],
      ['Older', '/docs/old', null],
    ])
  })

  test('pressing the button again closes it', () => {
    const button = renderDropdown()
    fireEvent.click(button)
    fireEvent.click(button)
    expect(screen.queryByRole('menu')).toBeNull()
  })

  test('Escape closes it', () => {
    fireEvent.click(renderDropdown())
    fireEvent.keyDown(document, { key: 'Enter' })
    expect(screen.getByRole('menu')).toBeInTheDocument()
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
  })

  test('a click outside closes it; a click inside does not', () => {
    fireEvent.click(renderDropdown())
    fireEvent.mouseDown(screen.getByRole('menu'))
    expect(screen.getByRole('menu')).toBeInTheDocument()
    fireEvent.mouseDown(screen.getByText('Elsewhere'))
    expect(screen.queryByRole('menu')).toBeNull()
  })

  test('choosing an item closes it', () => {
    fireEvent.click(renderDropdown())
    fireEvent.click(screen.getByRole('menuitem', { name: 'Older' }))
    expect(screen.queryByRole('menu')).toBeNull()
  })
})
