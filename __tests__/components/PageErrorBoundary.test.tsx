import { fireEvent, render, screen, within } from '@testing-library/react'
import { PageErrorBoundary } from '../../components/PageErrorBoundary'

let consoleError: jest.SpyInstance
beforeEach(() => {
  // React logs every error a boundary catches; the boundary's output is what is under test.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => consoleError.mockRestore())

/** Throws `error` while `state.broken` is true, else renders the page. */
function makePage(error: Error) {
  const state = { broken: true }
  function Page() {
    if (state.broken) throw error
    return <p>Page content</p>
  }
  return { Page, state }
}

describe('PageErrorBoundary: a crash or a failed chunk shows a way out', () => {
  test('renders the page when nothing throws', () => {
    render(
      <PageErrorBoundary>
        <p>Page content</p>
      </PageErrorBoundary>
    )
    expect(screen.getByText('Page content')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  test('a crash shows "This page crashed." with the error and its cause, outermost first', () => {
    const { Page } = makePage(new Error('outer', { cause: new Error('inner') }))
    render(
      <PageErrorBoundary>
        <Page />
      </PageErrorBoundary>
    )
    const alert = screen.getByRole('alert')
    expect(within(alert).getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    const messages = within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent)
    expect(messages).toHaveLength(2)
    expect(messages[0]).toContain('outer')
    expect(messages[1]).toContain('inner')
    expect(screen.queryByText('Page content')).toBeNull()
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  test('"Try again" renders the page again', () => {
    const { Page, state } = makePage(new Error('outer', { cause: new Error('inner') }))
    render(
      <PageErrorBoundary>
        <Page />
      </PageErrorBoundary>
    )
    expect(screen.getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    state.broken = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(screen.getByText('Page content')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  test('"Try again" on a page that still fails shows the crash again, not a blank page', () => {
    const { Page } = makePage(new Error('still broken'))
    render(
      <PageErrorBoundary>
        <Page />
      </PageErrorBoundary>
    )
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(screen.getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    expect(screen.getByText(/still broken/)).toBeInTheDocument()
  })

  test('a thrown non-Error value is still shown', () => {
    function Page(): JSX.Element {
      throw 'plain string failure'
    }
    render(
      <PageErrorBoundary>
        <Page />
      </PageErrorBoundary>
    )
    expect(screen.getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    expect(screen.getByText('plain string failure')).toBeInTheDocument()
  })

  test('a failed chunk load shows its message and a "Retry" button that reloads', () => {
    const error = new Error('Loading chunk 421 failed. (error: https://docs.example/_next/static/chunks/421.js)')
    error.name = 'ChunkLoadError'
    const { Page } = makePage(error)
    const reload = jest.fn()
    render(
      <PageErrorBoundary reload={reload}>
        <Page />
      </PageErrorBoundary>
    )
    const alert = screen.getByRole('alert')
    expect(within(alert).getByText(error.message)).toBeInTheDocument()
    expect(within(alert).queryByRole('heading', { name: 'This page crashed.' })).toBeNull()
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(reload).not.toHaveBeenCalled()
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('a chunk failure recognised by its message (CSS chunk, plain Error) also offers "Retry"', () => {
    const { Page } = makePage(new Error('Loading CSS chunk pages/docs/leads/intro failed.'))
    const reload = jest.fn()
    render(
      <PageErrorBoundary reload={reload}>
        <Page />
      </PageErrorBoundary>
    )
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
