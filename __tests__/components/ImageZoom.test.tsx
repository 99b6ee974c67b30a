import { act, render } from '@testing-library/react'
import { ImageZoom, ZOOM_DELAY_MS, ZOOM_OPTIONS, ZOOM_SELECTOR } from '../../components/ImageZoom'
import { routerEvents } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The real medium-zoom, wrapped so the test can see how it was called.
jest.mock('medium-zoom', () => {
  const actual = jest.requireActual('medium-zoom')
  return { __esModule: true, default: jest.fn((...args: unknown[]) => (actual.default ?? actual)(...args)) }
})
const mediumZoom = (jest.requireMock('medium-zoom') as { default: jest.Mock }).default

/** Lets timers run, then the on-demand import of medium-zoom settle. */
async function advance(ms: number) {
  await act(async () => {
    jest.advanceTimersByTime(ms)
  })
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve()
  })
}
const zoomable = (img: Element) => img.classList.contains('medium-zoom-image')

function Page({ images }: { images: string[] }) {
  return (
    <main>
      {images.map((src) => (
        <img key={src} src={src} alt={src} />
      ))}
    </main>
  )
}

beforeEach(() => {
  jest.useFakeTimers()
  mediumZoom.mockClear()
})
afterEach(() => jest.useRealTimers())

describe('ImageZoom: zoom set up 1000 ms after a page renders; margin 0, scroll offset 40', () => {
  test('the constants are the SPEC ones', () => {
    expect(ZOOM_DELAY_MS).toBe(1000)
    expect(ZOOM_OPTIONS).toEqual({ margin: 0, scrollOffset: 40 })
  })

  test('content images become zoomable 1000 ms after the page renders, with the SPEC options', async () => {
    const { container } = render(
      <>
        <Page images={['/docs/leads/flow.png']} />
        <ImageZoom />
      </>
    )
    const img = container.querySelector('img')!
    await advance(999)
    expect(zoomable(img)).toBe(false)
    await advance(1)
    expect(zoomable(img)).toBe(true)
    expect(mediumZoom).toHaveBeenCalledWith(ZOOM_SELECTOR, { margin: 0, scrollOffset: 40 })
  })

  test('a page without images does not load medium-zoom at all', async () => {
    render(
      <>
        <Page images={[]} />
        <ImageZoom />
      </>
    )
    await advance(2000)
    expect(mediumZoom).not.toHaveBeenCalled()
  })

  test('after a route change the new page’s images become zoomable', async () => {
    const { container, rerender } = render(
      <>
        <Page images={[]} />
        <ImageZoom />
      </>
    )
    await advance(1000)
    rerender(
      <>
        <Page images={['/docs/internal/a.png', '/docs/internal/b.png']} />
        <ImageZoom />
      </>
    )
    act(() => routerEvents.emit('routeChangeComplete', '/docs/internal/intro'))
    await advance(999)
    expect(Array.from(container.querySelectorAll('img')).some(zoomable)).toBe(false)
    await advance(1)
    expect(Array.from(container.querySelectorAll('img')).every(zoomable)).toBe(true)
  })

  test('images outside the content are left alone', async () => {
    const { container } = render(
      <>
        <header>
          <img src="/logo.svg" alt="logo" />
        </header>
        <Page images={['/docs/leads/flow.png']} />
        <ImageZoom />
      </>
    )
    await advance(1000)
    expect(zoomable(container.querySelector('header img')!)).toBe(false)
    expect(zoomable(container.querySelector('main img')!)).toBe(true)
  })

  test('unmounting detaches zoom and stops listening to route changes', async () => {
    const { container, unmount } = render(
      <>
        <Page images={['/docs/leads/flow.png']} />
        <ImageZoom />
      </>
    )
    await advance(1000)
    const img = container.querySelector('img')!
    expect(zoomable(img)).toBe(true)
    unmount()
    expect(zoomable(img)).toBe(false)
    expect(routerEvents.listenerCount('routeChangeComplete')).toBe(0)
  })
})
