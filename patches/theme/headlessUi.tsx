/**
 * `@headlessui/react` as the docs theme sees it (next.config aliases it here).
 *
 * The theme uses Headless UI for its buttons (Button), the colour-mode select (Listbox) and navbar
 * drop-down menus (Menu). Headless UI 2 brings Floating UI, React Aria and
 * TanStack Virtual with it, loaded on every page for widgets that need none of them (their share
 * of a docs page's first load: docs/benchmarks.md, figures behind choices in the code). These are the same widgets with the same roles, keyboard use and class-name
 * callbacks, positioned with CSS. The theme's own search box (Combobox) never renders here: the
 * site's search replaces it (theme.config.tsx), so using it fails loudly instead of rendering a
 * half-working copy. Only the theme and Nextra's Button see this module (./index.ts): a
 * writer's <Tabs> or <Popup> still gets the real Headless UI, on the pages that use them.
 * Measured by: every page's first-load JavaScript in `npm run bench size`. Tested in
 * __tests__/patches/headlessUi.test.tsx (the widgets) and theme.test.ts (what the theme imports).
 */
import {
  createContext,
  createElement,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ElementType,
  type KeyboardEvent,
  type ReactNode,
} from 'react'

type ClassName<State> = string | ((state: State) => string | undefined) | undefined
type Children<State> = ReactNode | ((state: State) => ReactNode)
const classOf = <State,>(className: ClassName<State>, state: State) => (typeof className === 'function' ? className(state) : className)
const childrenOf = <State,>(children: Children<State>, state: State) => (typeof children === 'function' ? children(state) : children)

/** Headless UI's `anchor="top start"` and friends, as a fixed position next to the button. */
interface Anchor {
  to?: string
  gap?: number
  padding?: number
}
function useAnchoredStyle(open: boolean, button: React.RefObject<HTMLElement>, anchor: Anchor | string | undefined): CSSProperties | undefined {
  const [style, setStyle] = useState<CSSProperties>()
  // Before paint, so the popup never shows at the wrong place first.
  const useBeforePaint = typeof window === 'undefined' ? useEffect : useLayoutEffect
  useBeforePaint(() => {
    if (!open || !button.current) return
    const { to = 'bottom', gap = 0 } = typeof anchor === 'string' ? { to: anchor } : (anchor ?? {})
    const rect = button.current.getBoundingClientRect()
    const [side, align = 'start'] = to.split(' ')
    const next: CSSProperties = { position: 'fixed' }
    if (side === 'top') next.bottom = window.innerHeight - rect.top + gap
    else next.top = rect.bottom + gap
    if (align === 'end') next.right = window.innerWidth - rect.right
    else next.left = rect.left
    next.minWidth = rect.width
    setStyle(next)
  }, [open])
  return style
}

/** The list a button opens (ListboxOptions, MenuItems): its element, class name and position. */
interface PopupListProps {
  as?: ElementType
  className?: ClassName<{ open: boolean }>
  anchor?: Anchor | string
  /** Headless UI's enter/leave transition flag; the theme's class names animate by themselves. */
  transition?: boolean
  children?: ReactNode
}

/** Whether keyboard focus is on the element (`:focus-visible`), for the class-name callbacks. */
function useFocusVisible() {
  const [focus, setFocus] = useState(false)
  return {
    focus,
    onFocus: (event: React.FocusEvent<HTMLElement>) => setFocus(event.currentTarget.matches(':focus-visible')),
    onBlur: () => setFocus(false),
  }
}

/** Closes the popup when the reader clicks or taps anywhere outside the widget. */
function useOutsideClose(open: boolean, close: () => void, inside: Array<React.RefObject<HTMLElement>>) {
  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!inside.some((ref) => ref.current?.contains(event.target as Node))) close()
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])
}

/** Arrow keys, Home and End over a popup's items; returns the item index the key moves to. */
function movedIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowDown') return current < count - 1 ? current + 1 : 0
  if (key === 'ArrowUp') return current > 0 ? current - 1 : count - 1
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  return null
}

// ---------------------------------------------------------------------------------------------
// Button: a plain button whose class name may depend on focus and hover.

type ButtonProps = Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, 'className'> & { className?: ClassName<{ focus: boolean; hover: boolean; active: boolean; disabled: boolean }> }

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ className, onFocus, onBlur, onMouseEnter, onMouseLeave, ...props }, ref) {
  const visible = useFocusVisible()
  const focus = visible.focus
  const [hover, setHover] = useState(false)
  return (
    <button
      type="button"
      {...props}
      ref={ref}
      className={classOf(className, { focus, hover, active: false, disabled: !!props.disabled })}
      onFocus={(event) => {
        visible.onFocus(event)
        onFocus?.(event)
      }}
      onBlur={(event) => {
        visible.onBlur()
        onBlur?.(event)
      }}
      onMouseEnter={(event) => {
        setHover(true)
        onMouseEnter?.(event)
      }}
      onMouseLeave={(event) => {
        setHover(false)
        onMouseLeave?.(event)
      }}
    />
  )
})

// ---------------------------------------------------------------------------------------------
// Listbox: a button that opens a list of options; choosing one calls onChange.
// Options are found in the open list's DOM, in order; each option's value is kept by its id.

type Opening = 'first' | 'last' | 'selected'
interface ListboxState {
  open: boolean
  openAt: (at: Opening) => void
  close: () => void
  value: unknown
  choose: (value: unknown) => void
  active: string | null
  setActive: (id: string | null) => void
  values: React.MutableRefObject<Map<string, unknown>>
  opening: React.MutableRefObject<Opening | null>
  button: React.RefObject<HTMLButtonElement>
  list: React.RefObject<HTMLElement>
  id: string
}
const ListboxContext = createContext<ListboxState | null>(null)
function useListbox(part: string): ListboxState {
  const state = useContext(ListboxContext)
  if (!state) throw new Error(`<${part}> must be inside <Listbox>`)
  return state
}
/** Options are compared by their `key` when they have one (the theme makes new objects each render). */
const sameOption = (a: unknown, b: unknown) =>
  a === b || (!!a && !!b && typeof a === 'object' && typeof b === 'object' && 'key' in a && 'key' in b && a.key === b.key)

const optionIds = (list: HTMLElement | null) => [...(list?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].map((option) => option.id)

export function Listbox({ value, onChange, children }: { value: unknown; onChange: (value: any) => void; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState<string | null>(null)
  const values = useRef(new Map<string, unknown>())
  const opening = useRef<Opening | null>(null)
  const button = useRef<HTMLButtonElement>(null)
  const list = useRef<HTMLElement>(null)
  const id = useId()
  const openAt = useCallback((at: Opening) => {
    opening.current = at
    setOpen(true)
  }, [])
  const close = useCallback(() => {
    setOpen(false)
    setActive(null)
  }, [])
  const choose = useCallback(
    (option: unknown) => {
      onChange(option)
      close()
      button.current?.focus()
    },
    [onChange, close]
  )
  useOutsideClose(open, close, [button, list])
  const state = useMemo(() => ({ open, openAt, close, value, choose, active, setActive, values, opening, button, list, id }), [open, openAt, close, value, choose, active, id])
  return <ListboxContext.Provider value={state}>{children}</ListboxContext.Provider>
}

export function ListboxButton({ className, children, ...rest }: { className?: ClassName<{ open: boolean; hover: boolean; focus: boolean }>; children?: ReactNode; title?: string }) {
  const listbox = useListbox('ListboxButton')
  const [hover, setHover] = useState(false)
  const { focus, onFocus, onBlur } = useFocusVisible()
  return (
    <button
      {...rest}
      ref={listbox.button}
      type="button"
      aria-haspopup="listbox"
      aria-expanded={listbox.open}
      aria-controls={listbox.open ? `${listbox.id}-options` : undefined}
      className={classOf(className, { open: listbox.open, hover, focus })}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={onFocus}
      onBlur={onBlur}
      onClick={() => (listbox.open ? listbox.close() : listbox.openAt('selected'))}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault()
          listbox.openAt(event.key === 'ArrowDown' ? 'first' : 'last')
        }
      }}
    >
      {children}
    </button>
  )
}

export function ListboxOptions({ as = 'div', className, anchor, children, transition: _transition, ...rest }: PopupListProps) {
  const listbox = useListbox('ListboxOptions')
  const style = useAnchoredStyle(listbox.open, listbox.button, anchor)
  useEffect(() => {
    if (!listbox.open) return
    const list = listbox.list.current
    list?.focus({ preventScroll: true })
    const ids = optionIds(list)
    const at = listbox.opening.current
    listbox.opening.current = null
    const selected = list?.querySelector<HTMLElement>('[role="option"][aria-selected="true"]')?.id
    listbox.setActive((at === 'first' ? ids[0] : at === 'last' ? ids[ids.length - 1] : selected) ?? null)
  }, [listbox.open])
  if (!listbox.open) return null
  const onKeyDown = (event: KeyboardEvent) => {
    const ids = optionIds(listbox.list.current)
    const moved = movedIndex(event.key, listbox.active ? ids.indexOf(listbox.active) : -1, ids.length)
    if (moved !== null) {
      event.preventDefault()
      listbox.setActive(ids[moved] ?? null)
    } else if ((event.key === 'Enter' || event.key === ' ') && listbox.active) {
      event.preventDefault()
      listbox.choose(listbox.values.current.get(listbox.active))
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      listbox.close()
      if (event.key === 'Escape') {
        event.preventDefault()
        listbox.button.current?.focus()
      }
    }
  }
  return createElement(
    as,
    {
      ...rest,
      ref: listbox.list,
      id: `${listbox.id}-options`,
      role: 'listbox',
      tabIndex: -1,
      'aria-activedescendant': listbox.active ?? undefined,
      className: classOf(className, { open: true }),
      style,
      onKeyDown,
    },
    children
  )
}

export function ListboxOption({ as = 'div', value, className, children, ...rest }: { as?: ElementType; value: unknown; className?: ClassName<{ focus: boolean; selected: boolean }>; children?: Children<{ focus: boolean; selected: boolean }> }) {
  const listbox = useListbox('ListboxOption')
  const id = useId()
  listbox.values.current.set(id, value)
  useEffect(() => () => void listbox.values.current.delete(id), [id])
  const state = { focus: listbox.active === id, selected: sameOption(value, listbox.value) }
  return createElement(
    as,
    {
      ...rest,
      id,
      role: 'option',
      'aria-selected': state.selected,
      className: classOf(className, state),
      onMouseMove: () => listbox.active !== id && listbox.setActive(id),
      onClick: () => listbox.choose(value),
    },
    childrenOf(children, state)
  )
}

// ---------------------------------------------------------------------------------------------
// Menu: a button that opens a list of links; the arrow keys move focus through them.

interface MenuState {
  open: boolean
  setOpen: (open: boolean) => void
  button: React.RefObject<HTMLButtonElement>
  items: React.RefObject<HTMLElement>
  /** Focus the first item once the menu opens (opened from the keyboard). */
  focusFirst: React.MutableRefObject<boolean>
  id: string
}
const MenuContext = createContext<MenuState | null>(null)
function useMenu(part: string): MenuState {
  const state = useContext(MenuContext)
  if (!state) throw new Error(`<${part}> must be inside <Menu>`)
  return state
}
const menuItems = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]

export function Menu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const items = useRef<HTMLElement>(null)
  const focusFirst = useRef(false)
  const id = useId()
  useOutsideClose(open, () => setOpen(false), [button, items])
  const state = useMemo(() => ({ open, setOpen, button, items, focusFirst, id }), [open, id])
  return <MenuContext.Provider value={state}>{children}</MenuContext.Provider>
}

export function MenuButton({ className, children, ...rest }: { className?: ClassName<{ open: boolean; focus: boolean }>; children?: ReactNode }) {
  const menu = useMenu('MenuButton')
  const { focus, onFocus, onBlur } = useFocusVisible()
  return (
    <button
      {...rest}
      ref={menu.button}
      type="button"
      aria-haspopup="menu"
      aria-expanded={menu.open}
      aria-controls={menu.open ? `${menu.id}-items` : undefined}
      className={classOf(className, { open: menu.open, focus })}
      onFocus={onFocus}
      onBlur={onBlur}
      onClick={() => menu.setOpen(!menu.open)}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') {
          event.preventDefault()
          menu.focusFirst.current = true
          menu.setOpen(true)
        }
      }}
    >
      {children}
    </button>
  )
}

export function MenuItems({ as = 'div', className, anchor, children, transition: _transition, ...rest }: PopupListProps) {
  const menu = useMenu('MenuItems')
  const style = useAnchoredStyle(menu.open, menu.button, anchor)
  useEffect(() => {
    if (!menu.open) return
    const first = menu.focusFirst.current ? menuItems(menu.items.current)[0] : undefined
    menu.focusFirst.current = false
    ;(first ?? menu.items.current)?.focus({ preventScroll: true })
  }, [menu.open])
  if (!menu.open) return null
  const onKeyDown = (event: KeyboardEvent) => {
    const items = menuItems(menu.items.current)
    const moved = movedIndex(event.key, items.indexOf(document.activeElement as HTMLElement), items.length)
    if (moved !== null) {
      event.preventDefault()
      items[moved]?.focus()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      menu.setOpen(false)
      menu.button.current?.focus()
    } else if (event.key === 'Tab') {
      menu.setOpen(false)
    }
  }
  return createElement(
    as,
    { ...rest, ref: menu.items, id: `${menu.id}-items`, role: 'menu', tabIndex: -1, className: classOf(className, { open: true }), style, onKeyDown },
    children
  )
}

export function MenuItem({ as = 'button', className, children, ...rest }: { as?: ElementType; className?: ClassName<{ focus: boolean }>; children?: Children<{ focus: boolean }>; [prop: string]: unknown }) {
  const menu = useMenu('MenuItem')
  // Focus follows the keyboard and the pointer; the class name follows focus.
  const [focus, setFocus] = useState(false)
  const state = { focus }
  return createElement(
    as,
    {
      ...rest,
      role: 'menuitem',
      tabIndex: -1,
      className: classOf(className, state),
      onFocus: () => setFocus(true),
      onBlur: () => setFocus(false),
      onMouseMove: (event: React.MouseEvent<HTMLElement>) => document.activeElement !== event.currentTarget && event.currentTarget.focus({ preventScroll: true }),
      onClick: () => menu.setOpen(false),
    },
    childrenOf(children, state)
  )
}

// ---------------------------------------------------------------------------------------------
// Combobox: only the theme's own search box uses it, and the site's search replaces that box.

function replacedSearch(): never {
  throw new Error("The docs theme's built-in search is replaced by the site's search (theme.config.tsx search.component); Headless UI's Combobox is not bundled")
}
export const Combobox = replacedSearch
export const ComboboxInput = replacedSearch
export const ComboboxOption = replacedSearch
export const ComboboxOptions = replacedSearch
