/**
 * @jest-environment node
 *
 * The stream that tells open docs pages in `npm run dev` that props were written: a page that
 * (re)connects learns when the last write was, so a write it missed while loading or offline is
 * not lost; an edit's event names its pages by token, and only those refresh; and stopping it
 * ends open streams rather than waiting for the browsers to leave.
 */
import { startPropsEvents, type PropsEvents } from '../../scripts/server/propsEvents'
import { refreshFor, routeToken } from '../../lib/render/devPropsEvents'

/** Reads a stream's events as their data lines, in order. */
function eventsOf(response: Response): () => Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  return async () => {
    for (;;) {
      const match = buffered.match(/^data: (.*)\n\n/m)
      if (match) {
        buffered = buffered.slice(match.index! + match[0].length)
        return match[1]
      }
      const { value, done } = await reader.read()
      if (done) throw new Error('the stream ended')
      buffered += value
    }
  }
}

let events: PropsEvents | undefined
afterEach(() => events?.stop())

test('a page that connects is told the last write at once (none yet: 0), and each write as it happens', async () => {
  events = await startPropsEvents()
  const response = await fetch(`${events.url}/_dev/props-events`)
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  // Next's dev server would gzip the stream, and so hold its events back, without no-transform.
  expect(response.headers.get('cache-control')).toContain('no-transform')
  const next = eventsOf(response)
  expect(await next()).toBe('0')
  const before = Date.now()
  events.changed()
  const written = Number(await next())
  expect(written).toBeGreaterThanOrEqual(before)

  // A page that connects later (or again) learns of that write without another one.
  const later = eventsOf(await fetch(`${events.url}/_dev/props-events`))
  expect(Number(await later())).toBe(written)
})

test('a page that has gone is left out, and the pages still open are told', async () => {
  events = await startPropsEvents()
  const gone = new AbortController()
  const leaving = eventsOf(await fetch(events.url, { signal: gone.signal }))
  const staying = eventsOf(await fetch(events.url))
  await Promise.all([leaving(), staying()])
  gone.abort()
  await new Promise((resolve) => setTimeout(resolve, 100))
  events.changed()
  events.changed()
  expect(Number(await staying())).toBeGreaterThan(0)
})

test('stopping ends the open streams, and does not wait for the browsers to close them', async () => {
  events = await startPropsEvents()
  const next = eventsOf(await fetch(events.url))
  await next()
  await events.stop()
  await expect(next()).rejects.toThrow()
  await expect(fetch(events.url)).rejects.toThrow()
  events = undefined
})

test("an edit's event names the routes it wrote by token, not by name, and only their open pages refresh; a page that connects later refreshes once", async () => {
  events = await startPropsEvents()
  const next = eventsOf(await fetch(events.url))
  expect(await next()).toBe('0')
  events.changed(['/docs/leads/intro', '/docs/leads/setup'])
  const data = await next()
  expect(data).not.toContain('/docs')
  const [time, ...tokens] = data.split(' ')
  expect(tokens).toEqual([routeToken('/docs/leads/intro'), routeToken('/docs/leads/setup')])
  const loaded = Number(time) - 1000
  expect(refreshFor(data, '/docs/leads/intro', loaded)).toBe(Number(time))
  expect(refreshFor(data, '/docs/internal/guide', loaded)).toBeNull()
  // Props read after the write are not fetched again.
  expect(refreshFor(data, '/docs/leads/intro', Number(time))).toBeNull()

  // New rules (no routes) or a write a page missed: every page older than it refreshes.
  events.changed()
  const all = await next()
  expect(refreshFor(all, '/docs/internal/guide', loaded)).toBe(Number(all))
  expect(refreshFor(await eventsOf(await fetch(events.url))(), '/docs/internal/guide', loaded)).toBe(Number(all))

  // A title every sidebar shows changes thousands of pages' props: the event names none of them, and every page refreshes.
  events.changed(Array.from({ length: 2000 }, (_, index) => `/docs/internal/page-${index}`))
  const many = await next()
  expect(many).toMatch(/^\d+$/)
})
