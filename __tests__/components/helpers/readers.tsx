/** Readers for component tests: the shipped users of access.config.ts, rendered without Amplify. */
import path from 'node:path'
import { render, type RenderOptions } from '@testing-library/react'
import type { ReactElement } from 'react'
import { access } from '../../../lib/access'
import { compileAccess } from '../../../lib/access/compileAccess'
import type { AccessConfig } from '../../../lib/access/types'
import { AuthStateProvider, LOADING_AUTH, authStateFor, type AuthState } from '../../../lib/auth/AuthContext'
import { readerViewFor, readerViewSources } from '../../../edge/readerViewFor'
import { audienceSummaries, planAggregates } from '../../../lib/access/planAggregates'
import { scanContent } from '../../../pipeline/content/contentSource'

/** The shipped site's audiences, as the build plans them from its pages (lib/access/planAggregates.ts). */
const SHIPPED_ROUTES = scanContent(path.resolve(__dirname, '../../..')).pages.map((page) => page.route)
export const SHIPPED_AUDIENCES = audienceSummaries(planAggregates({ access, routes: SHIPPED_ROUTES }))

/** The view the authority gives each reader of the shipped configuration (no route manifests in component tests). */
const sources = readerViewSources(access, {}, SHIPPED_AUDIENCES)
export const signedInAs = (username: string): AuthState => authStateFor(readerViewFor(sources, { username }))
export const ANONYMOUS: AuthState = authStateFor(readerViewFor(sources, null))
export const LOADING: AuthState = LOADING_AUTH

/** How `username` is seen under another access configuration than the shipped one, over the shipped pages. */
export function signedInUnder(config: AccessConfig, username: string): AuthState {
  const compiled = compileAccess(config, {})
  const audiences = audienceSummaries(planAggregates({ access: compiled, routes: SHIPPED_ROUTES }))
  return authStateFor(readerViewFor(readerViewSources(compiled, {}, audiences), { username }))
}

/** One of each kind of reader the shipped configuration knows, plus a signed-in stranger. */
export type ReaderName = 'admin' | 'leads1' | 'internal1' | 'support1' | 'outsider' | 'anonymous'
export const READERS: Record<ReaderName, AuthState> = {
  admin: signedInAs('admin'),
  leads1: signedInAs('leads1'),
  internal1: signedInAs('internal1'),
  support1: signedInAs('support1'),
  outsider: signedInAs('outsider'),
  anonymous: ANONYMOUS,
}

/** Renders `ui` as the given reader. `rerenderAs` swaps the reader (or the tree) in place. */
export function renderAs(auth: AuthState, ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) {
  const result = render(<AuthStateProvider value={auth}>{ui}</AuthStateProvider>, options)
  return {
    ...result,
    rerenderAs: (nextAuth: AuthState, nextUi: ReactElement = ui) =>
      result.rerender(<AuthStateProvider value={nextAuth}>{nextUi}</AuthStateProvider>),
  }
}

/** Hrefs of every link in `root` that points into the docs, in document order. */
export function docsHrefs(root: ParentNode = document): string[] {
  return Array.from(root.querySelectorAll<HTMLAnchorElement>('a[href^="/docs"]')).map((a) => a.getAttribute('href') as string)
}
