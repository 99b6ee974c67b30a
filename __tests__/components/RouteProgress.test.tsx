import { act, render, screen } from '@testing-library/react'
import NProgress from 'nprogress'
import { PROGRESS_DELAY_MS, RouteProgress } from '../../components/RouteProgress'
import { routerEvents } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))

const bar = () => document.getElementById('nprogress')
// Async acts: nprogress loads on first use, so a step also lets its import settle.
const emit = (event: string) => act(async () => void routerEvents.emit(event, '/docs/leads/intro', { shallow: false }))
const advance = (ms: number) => act(async () => void jest.advanceTimersByTime(ms))

beforeEach(() => {
  jest.useFakeTimers()
})

afterEach(() => {
  // Let nprogress finish its own queue, so the next test starts from a removed, idle bar.
  act(() => {
    NProgress.done()
    jest.advanceTimersByTime(5000)
  })
  NProgress.remove()
  jest.useRealTimers()
})

describe('RouteProgress: a bar only for route changes slower than 200 ms', () => {
  test('the delay is the SPEC value', async () => {
    expect(PROGRESS_DELAY_MS).toBe(200)
  })

  test('a slow route change shows the bar only after 200 ms, and completing it removes the bar', async () => {
    render(<RouteProgress />)
    await emit('routeChangeStart')
    await advance(199)
    expect(bar()).toBeNull()
    await advance(1)
    expect(bar()).toBeInTheDocument()
    expect(bar()!.querySelector('.bar')).toBeInTheDocument()

    await emit('routeChangeComplete')
    // nprogress first animates to 100 %, then fades out and removes itself.
    expect(bar()).toBeInTheDocument()
    await advance(1000)
    expect(bar()).toBeNull()
    expect(NProgress.isStarted()).toBe(false)
  })

  test('a route change that completes within 150 ms never shows the bar', async () => {
    render(<RouteProgress />)
    await emit('routeChangeStart')
    await advance(150)
    await emit('routeChangeComplete')
    await advance(2000)
    expect(bar()).toBeNull()
    expect(NProgress.isStarted()).toBe(false)
  })

  test('a failed route change removes the bar too', async () => {
    render(<RouteProgress />)
    await emit('routeChangeStart')
    await advance(500)
    expect(bar()).toBeInTheDocument()
    await emit('routeChangeError')
    await advance(1000)
    expect(bar()).toBeNull()
  })

  test('a new route change restarts the delay instead of showing the bar early', async () => {
    render(<RouteProgress />)
    await emit('routeChangeStart')
    await advance(150)
    await emit('routeChangeStart')
    await advance(150)
    expect(bar()).toBeNull()
    await advance(50)
    expect(bar()).toBeInTheDocument()
  })

  test('configures nprogress with the SPEC options (minimum 0.08, speed 200, trickle speed 800, no spinner)', async () => {
    // Start from other values, so only the component can have set the SPEC ones.
    NProgress.configure({ minimum: 0.5, speed: 999, trickleSpeed: 5, showSpinner: true })
    render(<RouteProgress />)
    await emit('routeChangeStart')
    await advance(PROGRESS_DELAY_MS)
    expect(NProgress.settings).toEqual(expect.objectContaining({ minimum: 0.08, speed: 200, trickleSpeed: 800, showSpinner: false }))
    expect((NProgress.settings as unknown as { trickleRate: number }).trickleRate).toBe(0.02)
    // What the reader sees: the bar starts at 8 % and there is no spinner.
    expect(NProgress.status).toBe(0.08)
    expect(bar()!.querySelector('.spinner')).toBeNull()
    const style = (bar()!.querySelector('.bar') as HTMLElement).getAttribute('style') ?? ''
    expect(style).toMatch(/-92%/)
    expect(style).toMatch(/200ms/)
  })

  test('unmounting stops listening and cancels a pending bar', async () => {
    const { unmount } = render(<RouteProgress />)
    expect(routerEvents.listenerCount('routeChangeStart')).toBe(1)
    await emit('routeChangeStart')
    await advance(100)
    unmount()
    expect(routerEvents.listenerCount('routeChangeStart')).toBe(0)
    expect(routerEvents.listenerCount('routeChangeComplete')).toBe(0)
    expect(routerEvents.listenerCount('routeChangeError')).toBe(0)
    await advance(1000)
    expect(bar()).toBeNull()
  })
})

test('while the bar shows, a polite status says the page is loading, and falls silent when it completes', async () => {
  render(<RouteProgress />)
  const status = screen.getByRole('status')
  expect(status).toHaveAttribute('aria-live', 'polite')
  expect(status).toHaveTextContent('')
  await emit('routeChangeStart')
  await advance(200)
  expect(status).toHaveTextContent('Loading page…')
  await emit('routeChangeComplete')
  expect(status).toHaveTextContent('')
})

