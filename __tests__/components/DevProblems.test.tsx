/**
 * `npm run dev`: the content check's problems over the open page. Its own messages in full, of
 * others only how many (a page names no other page or file); hidden until the next check; and
 * nothing of it in a build.
 */
import { act, fireEvent, render, screen } from '@testing-library/react'
import type { DevProblems as Problems } from '../../lib/render/useDevServerEvents'

type Component = (props: { problems: Problems | null }) => JSX.Element | null

/** The component as a bundle of `mode` has it (the choice is made when the module loads). */
function componentIn(mode: 'development' | 'production'): Component {
  const before = process.env.NODE_ENV
  Object.assign(process.env, { NODE_ENV: mode })
  try {
    let loaded: Component | undefined
    // The component loaded anew, with the React the renderer uses.
    const [react, jsxRuntime, jsxDevRuntime] = [require('react'), require('react/jsx-runtime'), require('react/jsx-dev-runtime')]
    jest.isolateModules(() => {
      jest.doMock('react', () => react)
      jest.doMock('react/jsx-runtime', () => jsxRuntime)
      jest.doMock('react/jsx-dev-runtime', () => jsxDevRuntime)
      loaded = (require('../../components/DevProblems') as { DevProblems: Component }).DevProblems
    })
    return loaded!
  } finally {
    Object.assign(process.env, { NODE_ENV: before })
  }
}

const MESSAGE = 'content/docs/leads/intro.mdx:7:1: Expected a closing tag for `<Callout>` (7:1-7:22)'

test("the page's own problems in full, and how many others there are", () => {
  const DevProblems = componentIn('development')
  render(<DevProblems problems={{ count: 3, messages: [MESSAGE] }} />)
  const alert = screen.getByRole('alert')
  expect(alert).toHaveTextContent('This page did not pass the content check')
  expect(alert).toHaveTextContent(MESSAGE)
  expect(alert).toHaveTextContent('2 more elsewhere.')
  expect(alert).toHaveTextContent('Until the check passes, each page shows its last version that passed (a new page is not found)')
})

test('problems only elsewhere: how many, and no page or file named', () => {
  const DevProblems = componentIn('development')
  render(<DevProblems problems={{ count: 1, messages: [] }} />)
  const alert = screen.getByRole('alert')
  expect(alert).toHaveTextContent('The content check found a problem elsewhere')
  expect(alert.textContent).not.toMatch(/content\/|\.mdx/)
})

test('none: nothing shown; hidden by the reader until the next check finds problems again', () => {
  const DevProblems = componentIn('development')
  const { rerender } = render(<DevProblems problems={null} />)
  expect(screen.queryByRole('alert')).toBeNull()
  rerender(<DevProblems problems={{ count: 2, messages: [] }} />)
  act(() => fireEvent.click(screen.getByRole('button', { name: 'Hide' })))
  expect(screen.queryByRole('alert')).toBeNull()
  rerender(<DevProblems problems={{ count: 2, messages: [] }} />)
  expect(screen.getByRole('alert')).toHaveTextContent('The content check found 2 problems elsewhere')
})

test('a build draws none of it', () => {
  const DevProblems = componentIn('production')
  render(<DevProblems problems={{ count: 1, messages: [MESSAGE] }} />)
  expect(screen.queryByRole('alert')).toBeNull()
})
