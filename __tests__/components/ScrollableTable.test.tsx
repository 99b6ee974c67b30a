import { render, screen } from '@testing-library/react'
import { ScrollableTable, tableName } from '../../components/ScrollableTable'

const table = (html: string) => {
  const element = document.createElement('table')
  element.innerHTML = html
  return element
}

describe('the name of a scrolling table', () => {
  test('is its caption, else its first header cell, else "Table"', () => {
    expect(tableName(table('<caption> Fees  by state </caption><tr><th>Field</th></tr>'))).toBe('Fees by state')
    expect(tableName(table('<thead><tr><th>Field</th><th>Type</th></tr></thead>'))).toBe('Table: Field')
    expect(tableName(table('<tr><td>a</td></tr>'))).toBe('Table')
    expect(tableName(null)).toBe('Table')
  })
})

test('a table that fits the page is no region and no tab stop', () => {
  // jsdom lays nothing out: every table fits.
  render(
    <ScrollableTable>
      <tbody>
        <tr>
          <td>a</td>
        </tr>
      </tbody>
    </ScrollableTable>
  )
  expect(screen.getByRole('table')).toBeInTheDocument()
  expect(screen.queryByRole('region')).toBeNull()
  expect(screen.getByRole('table').parentElement).not.toHaveAttribute('tabindex')
})
