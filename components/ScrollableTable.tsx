import { useEffect, useRef, useState, type ComponentProps } from 'react'

/**
 * The name a scrolling table's wrapper is announced by: the table's caption, else its first
 * header cell, else "Table".
 */
export function tableName(table: HTMLTableElement | null): string {
  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
  const caption = text(table?.caption)
  if (caption) return caption
  const header = text(table?.querySelector('th'))
  return header ? `Table: ${header}` : 'Table'
}

/**
 * A Markdown table in a wrapper that scrolls sideways when the table is wider than the page (a
 * phone, a long endpoint table). Only then is the wrapper a named region that takes focus, so a
 * keyboard reader can reach and scroll it (WCAG 2.1.1; axe's scrollable-region-focusable) and a
 * narrow table adds no empty tab stop. The theme's focus ring marks it (styles/site.css).
 */
export function ScrollableTable({ className, children, ...props }: ComponentProps<'table'>) {
  const wrapper = useRef<HTMLDivElement>(null)
  const [name, setName] = useState<string | null>(null)
  useEffect(() => {
    const element = wrapper.current
    if (!element) return
    const measure = () => setName(element.scrollWidth > element.clientWidth + 1 ? tableName(element.querySelector('table')) : null)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    if (element.firstElementChild) observer.observe(element.firstElementChild)
    return () => observer.disconnect()
  }, [])
  const scrolls = name === null ? {} : { role: 'region', tabIndex: 0, 'aria-label': name }
  return (
    <div ref={wrapper} className="table-scroll nextra-scrollbar" {...scrolls}>
      <table className={className} {...props}>
        {children}
      </table>
    </div>
  )
}
