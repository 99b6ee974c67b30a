/** Browser APIs that jsdom lacks and Nextra's theme calls on mount (they only feed visual effects). */
export function installBrowserApis(): void {
  class InertObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return []
    }
  }
  const w = window as unknown as Record<string, unknown>
  w.IntersectionObserver ??= InertObserver
  w.ResizeObserver ??= InertObserver
  w.matchMedia ??= (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })
  window.scrollTo = () => {}
}
