import { act, render } from '@testing-library/react'
import NProgress from 'nprogress'
import { PROGRESS_DELAY_MS, RouteProgress } from '../../components/RouteProgress'
import { routerEvents } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))

const bar = () => document.getElementById('nprogress')
const emit = (event: string) => act(() => routerEvents.emit(event, '/docs/leads/intro', { shallow: false }))
const advance = (ms: number) => act(() => jest.advanceTimersByTime(ms))

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

describe('RouteProgress (SPEC §9: a bar only for route changes slower than 200 ms)', () => {
  test('the delay is the SPEC value', () => {
    expect(PROGRESS_DELAY_MS).toBe(200)
  })

  test('a slow route change shows the bar only after 200 ms, and completing it removes the bar', () => {
    render(<RouteProgress />)
    emit('routeChangeStart')
    advance(199)
    expect(bar()).toBeNull()
    advance(1)
    expect(bar()).toBeInTheDocument()
    expect(bar()!.querySelector('.bar')).toBeInTheDocument()

    emit('routeChangeComplete')
    // nprogress first animates to 100 %, then fades out and removes itself.
    expect(bar()).toBeInTheDocument()
    advance(1000)
    expect(bar()).toBeNull()
    expect(NProgress.isStarted()).toBe(false)
  })

  test('a route change that completes within 150 ms never shows the bar', () => {
    render(<RouteProgress />)
    emit('routeChangeStart')
    advance(150)
    emit('routeChangeComplete')
    advance(2000)
    expect(bar()).toBeNull()
    expect(NProgress.isStarted()).toBe(false)
  })

  test('a failed route change removes the bar too', () => {
    render(<RouteProgress />)
    emit('routeChangeStart')
    advance(500)
    expect(bar()).toBeInTheDocument()
    emit('routeChangeError')
    advance(1000)
    expect(bar()).toBeNull()
  })

  test('a new route change restarts the delay instead of showing the bar early', () => {
    render(<RouteProgress />)
    emit('routeChangeStart')
    advance(150)
    emit('routeChangeStart')
    advance(150)
    expect(bar()).toBeNull()
    advance(50)
    expect(bar()).toBeInTheDocument()
  })

  test('configures nprogress with the SPEC options (minimum 0.08, speed 200, trickle speed 800, no spinner)', () => {
    // Start from other values, so only the component can have set the SPEC ones.
    NProgress.configure({ minimum: 0.5, speed: 999, trickleSpeed: 5, showSpinner: true })
    render(<RouteProgress />)
    expect(NProgress.settings).toEqual(expect.objectContaining({ minimum: 0.08, speed: 200, trickleSpeed: 800, showSpinner: false }))
    expect((NProgress.settings as unknown as { trickleRate: number }).trickleRate).toBe(0.02)

    emit('routeChangeStart')
    advance(PROGRESS_DELAY_MS)
    // What the reader sees: the bar starts at 8 % and there is no spinner.
    expect(NProgress.status).toBe(0.08)
    expect(bar()!.querySelector('.spinner')).toBeNull()
    const style = (bar()!.querySelector('.bar') as HTMLElement).getAttribute('style') ?? ''
    expect(style).toMatch(/-92%/)
    expect(style).toMatch(/200ms/)
  })

  test('unmounting stops listening and cancels a pending bar', () => {
    const { unmount } = render(<RouteProgress />)
    expect(routerEvents.listenerCount('routeChangeStart')).toBe(1)
    emit('routeChangeStart')
    advance(100)
    unmount()
    expect(routerEvents.listenerCount('routeChangeStart')).toBe(0)
    expect(routerEvents.listenerCount('routeChangeComplete')).toBe(0)
    expect(routerEvents.listenerCount('routeChangeError')).toBe(0)
    advance(1000)
    expect(bar()).toBeNull()
  })
})
