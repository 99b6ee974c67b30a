/**
 * A controllable stand-in for `next/router`, for component tests. Use it with
 *   jest.mock('next/router', () => require('./helpers/mockNextRouter'))
 * and drive it through `mockRouter`, `resetMockRouter` and `routerEvents`.
 * The default export mirrors Next's singleton Router (`Router.events`), `useRouter` returns
 * the same controllable object, so both styles of use see one router.
 */
type Handler = (...args: unknown[]) => void

/** A small mitt-like emitter, the shape of Next's `Router.events`. */
export function createEmitter() {
  const handlers = new Map<string, Set<Handler>>()
  return {
    on(type: string, handler: Handler) {
      if (!handlers.has(type)) handlers.set(type, new Set())
      handlers.get(type)!.add(handler)
    },
    off(type: string, handler: Handler) {
      handlers.get(type)?.delete(handler)
    },
    emit(type: string, ...args: unknown[]) {
      for (const handler of [...(handlers.get(type) ?? [])]) handler(...args)
    },
    /** How many handlers listen to `type` (lets a test check that unmounting unsubscribes). */
    listenerCount(type: string) {
      return handlers.get(type)?.size ?? 0
    },
    clear() {
      handlers.clear()
    },
  }
}

export const routerEvents = createEmitter()

export interface MockRouterState {
  pathname: string
  route: string
  asPath: string
  query: Record<string, string | string[] | undefined>
  isReady: boolean
  basePath: string
  locale: string | undefined
  locales: string[] | undefined
  defaultLocale: string | undefined
  isFallback: boolean
  isPreview: boolean
  isLocaleDomain: boolean
}

export interface MockRouter extends MockRouterState {
  replace: jest.Mock
  push: jest.Mock
  prefetch: jest.Mock
  back: jest.Mock
  forward: jest.Mock
  reload: jest.Mock
  beforePopState: jest.Mock
  events: typeof routerEvents
}

function defaults(): MockRouterState {
  return {
    pathname: '/',
    route: '/',
    asPath: '/',
    query: {},
    isReady: true,
    basePath: '',
    locale: undefined,
    locales: undefined,
    defaultLocale: undefined,
    isFallback: false,
    isPreview: false,
    isLocaleDomain: false,
  }
}

export const mockRouter: MockRouter = {
  ...defaults(),
  replace: jest.fn(() => Promise.resolve(true)),
  push: jest.fn(() => Promise.resolve(true)),
  prefetch: jest.fn(() => Promise.resolve()),
  back: jest.fn(),
  forward: jest.fn(),
  reload: jest.fn(),
  beforePopState: jest.fn(),
  events: routerEvents,
}

/**
 * What `useRouter()` returns. Like Next, which hands components a new public router object
 * whenever the app re-renders for a router change, a state change through `resetMockRouter` or
 * `updateMockRouter` gives a new object (so effects that depend on `router` run again); the
 * `jest.fn` methods are shared, so assertions can use `mockRouter.replace` and friends.
 */
let current: MockRouter = { ...mockRouter }

/** Changes the router's state (e.g. `isReady`, `query`) without clearing recorded calls. */
export function updateMockRouter(state: Partial<MockRouterState>): MockRouter {
  Object.assign(mockRouter, state)
  current = { ...mockRouter }
  return mockRouter
}

/**
 * Puts the router at a page. `pathname` is the route (`/404` for an unmatched path),
 * `asPath` what the address bar shows (defaults to `pathname`). Clears recorded calls.
 */
export function resetMockRouter(state: Partial<MockRouterState> = {}): MockRouter {
  const pathname = state.pathname ?? '/'
  Object.assign(mockRouter, defaults(), { route: pathname, asPath: pathname }, state)
  for (const fn of [mockRouter.replace, mockRouter.push, mockRouter.prefetch, mockRouter.back, mockRouter.forward, mockRouter.reload, mockRouter.beforePopState]) {
    fn.mockClear()
  }
  current = { ...mockRouter }
  return mockRouter
}

export function useRouter(): MockRouter {
  return current
}

const Router = {
  get router() {
    return current
  },
  events: routerEvents,
  get pathname() {
    return current.pathname
  },
  get asPath() {
    return current.asPath
  },
  get query() {
    return current.query
  },
  push: (...args: unknown[]) => mockRouter.push(...args),
  replace: (...args: unknown[]) => mockRouter.replace(...args),
  prefetch: (...args: unknown[]) => mockRouter.prefetch(...args),
  ready(callback: () => void) {
    callback()
  },
}

export default Router
