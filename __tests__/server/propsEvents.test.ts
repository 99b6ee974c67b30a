/**
 * @jest-environment node
 *
 * The stream that tells open docs pages in `npm run dev` that props were written: a page that
 * (re)connects learns when the last write was, so a write it missed while loading or offline is
 * not lost; and stopping it ends open streams rather than waiting for the browsers to leave.
 */
import { startPropsEvents, type PropsEvents } from '../../scripts/server/propsEvents'

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
