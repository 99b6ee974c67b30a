/**
 * The docs theme's colour-mode select and navbar menus, as built on patches/theme/headlessUi.tsx:
 * what a reader with a mouse or a keyboard gets.
 */
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { Button, Combobox, Listbox, ListboxButton, ListboxOption, ListboxOptions, Menu, MenuButton, MenuItem, MenuItems } from '../../patches/theme/headlessUi'

const OPTIONS = [
  { key: 'light', name: 'Light' },
  { key: 'dark', name: 'Dark' },
  { key: 'system', name: 'System' },
]

/** As the theme's Select renders it: new option objects on every render, class names from state. */
function ThemeSelect({ onPick }: { onPick?: (key: string) => void }) {
  const [theme, setTheme] = useState('light')
  return (
    <Listbox
      value={{ key: theme, name: theme }}
      onChange={(option: { key: string }) => {
        setTheme(option.key)
        onPick?.(option.key)
      }}
    >
      <ListboxButton title="Change theme" className={({ open }) => (open ? 'open' : 'closed')}>
        {theme}
      </ListboxButton>
      <ListboxOptions as="ul" anchor={{ to: 'top start', gap: 10 }} className={({ open }) => (open ? 'shown' : 'hidden')}>
        {OPTIONS.map((option) => (
          <ListboxOption key={option.key} value={{ ...option }} as="li" className={({ focus }) => (focus ? 'focused' : '')}>
            {option.name}
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  )
}

describe('Listbox', () => {
  test('a click opens the options with the current one selected; a click on another chooses it and closes', () => {
    const picked: string[] = []
    render(<ThemeSelect onPick={(key) => picked.push(key)} />)
    const button = screen.getByTitle('Change theme')
    expect(button).toHaveAttribute('aria-haspopup', 'listbox')
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('listbox')).toBeNull()

    fireEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(button).toHaveClass('open')
    expect(screen.getByRole('listbox')).toHaveClass('shown')
    expect(screen.getByRole('option', { name: 'Light' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('option', { name: 'Dark' })).toHaveAttribute('aria-selected', 'false')

    fireEvent.click(screen.getByRole('option', { name: 'Dark' }))
    expect(picked).toEqual(['dark'])
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(button).toHaveTextContent('dark')
    expect(document.activeElement).toBe(button)
  })

  test('the keyboard opens, moves through, chooses and escapes', () => {
    const picked: string[] = []
    render(<ThemeSelect onPick={(key) => picked.push(key)} />)
    const button = screen.getByTitle('Change theme')
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    const listbox = screen.getByRole('listbox')
    expect(document.activeElement).toBe(listbox)
    expect(screen.getByRole('option', { name: 'Light' })).toHaveClass('focused')
    fireEvent.keyDown(listbox, { key: 'ArrowDown' })
    fireEvent.keyDown(listbox, { key: 'ArrowDown' })
    expect(screen.getByRole('option', { name: 'System' })).toHaveClass('focused')
    expect(listbox.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'System' }).id)
    fireEvent.keyDown(listbox, { key: 'ArrowDown' })
    expect(screen.getByRole('option', { name: 'Light' })).toHaveClass('focused')
    fireEvent.keyDown(listbox, { key: 'End' })
    fireEvent.keyDown(listbox, { key: 'Enter' })
    expect(picked).toEqual(['system'])
    expect(screen.queryByRole('listbox')).toBeNull()

    fireEvent.keyDown(button, { key: 'ArrowUp' })
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(document.activeElement).toBe(button)
    expect(picked).toEqual(['system'])
  })

  test('a click outside closes the options without choosing', () => {
    const picked: string[] = []
    render(
      <>
        <ThemeSelect onPick={(key) => picked.push(key)} />
        <p>elsewhere</p>
      </>
    )
    fireEvent.click(screen.getByTitle('Change theme'))
    act(() => {
      screen.getByText('elsewhere').dispatchEvent(new Event('pointerdown', { bubbles: true }))
    })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(picked).toEqual([])
  })
})

describe('Menu', () => {
  const NavMenu = () => (
    <Menu>
      <MenuButton className={({ open }) => (open ? 'open' : '')}>Products</MenuButton>
      <MenuItems anchor={{ to: 'top end', gap: 10 }}>
        <MenuItem as="a" href="/one" className={({ focus }) => (focus ? 'focused' : '')}>
          One
        </MenuItem>
        <MenuItem as="a" href="/two" className={({ focus }) => (focus ? 'focused' : '')}>
          Two
        </MenuItem>
      </MenuItems>
    </Menu>
  )

  test('opens a menu of links that the arrow keys move through and Escape closes', () => {
    render(<NavMenu />)
    const button = screen.getByRole('button', { name: 'Products' })
    expect(button).toHaveAttribute('aria-haspopup', 'menu')
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    expect(screen.getByRole('menu')).toBeInTheDocument()
    expect(screen.getByRole('menuitem', { name: 'One' })).toHaveAttribute('href', '/one')
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'One' }))
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'ArrowDown' })
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Two' }))
    expect(screen.getByRole('menuitem', { name: 'Two' })).toHaveClass('focused')
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  test('a click on an item closes the menu', () => {
    render(<NavMenu />)
    fireEvent.click(screen.getByRole('button', { name: 'Products' }))
    fireEvent.click(screen.getByRole('menuitem', { name: 'Two' }))
    expect(screen.queryByRole('menu')).toBeNull()
  })
})

test('Button is a plain button whose class name follows hover, and keeps its own handlers', () => {
  const clicks: number[] = []
  render(
    <Button className={({ hover }) => (hover ? 'hovered' : 'idle')} onClick={() => clicks.push(1)}>
      Copy
    </Button>
  )
  const button = screen.getByRole('button', { name: 'Copy' })
  expect(button).toHaveAttribute('type', 'button')
  expect(button).toHaveClass('idle')
  fireEvent.mouseEnter(button)
  expect(button).toHaveClass('hovered')
  fireEvent.click(button)
  expect(clicks).toEqual([1])
})

test("the theme's own search box, which the site replaces, fails loudly instead of rendering", () => {
  jest.spyOn(console, 'error').mockImplementation(() => {})
  expect(() => render(<Combobox />)).toThrow(/built-in search is replaced by the site's search/)
})
