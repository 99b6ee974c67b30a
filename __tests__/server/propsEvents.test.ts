/**
 * @jest-environment node
 *
 * The stream that tells open docs pages in `npm run dev` that props were written: a page that
 * (re)connects learns when the last write was, so a write it missed while loading or offline is
 * not lost; an edit's event names its pages by token, and only those refresh; the content check's
 * problems reach the open pages by count and page token, and a page asks for its own messages; and stopping it ends open streams rather than waiting for the browsers to leave.
 */
import { startPropsEvents, type PropsEvents } from '../../scripts/server/propsEvents'
import { routeToken, PROBLEMS_QUERY, problemsFor, refreshFor } from '../../lib/render/devPropsEvents'

/** Reads a stream's events of one name (the unnamed ones by default) as their data lines, in order. */
function eventsOf(response: Response, name?: string): () => Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  return async () => {
    for (;;) {
      const match = buffered.match(/^(?:event: (.*)\n)?data: (.*)\n\n/m)
      if (match) {
        buffered = buffered.slice(match.index! + match[0].length)
        if (match[1] === name) return match[2]
        continue
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

test("the content check's problems reach every open page as a count and their pages' tokens; a page asks for its own messages; a check that passes clears them", async () => {
  events = await startPropsEvents()
  const problems = eventsOf(await fetch(events.url), 'problems')
  expect(await problems()).toBe('0')
  const broken = '/docs/internal/secret-plans'
  const message = `content/docs/internal/secret-plans.mdx:7:1: Expected a closing tag for \`<Callout>\` (7:1-7:22)`
  events.problems([
    { route: broken, message },
    { route: null, message: 'access.config.ts: rule 2 names an unknown list' },
    { route: null, message: 'npm run dev: the content check failed: out of memory' },
  ])
  const data = await problems()
  // The stream names no page: what a page of another section hears is that there are problems.
  expect(data).not.toMatch(/secret|docs|access/)
  expect(problemsFor(data, broken)).toEqual({ count: 3, here: true })
  expect(problemsFor(data, '/docs/leads/intro')).toEqual({ count: 3, here: false })
  // A page that connects now hears them at once.
  expect(problemsFor(await eventsOf(await fetch(events.url), 'problems')(), broken).here).toBe(true)

  const asked = async (route: string) => {
    const response = await fetch(`${events!.url}/_dev/props-events?${PROBLEMS_QUERY}=${routeToken(route)}`)
    expect(response.headers.get('cache-control')).toBe('no-store')
    return response.json()
  }
  expect(await asked(broken)).toEqual([message])
  expect(await asked('/docs/leads/intro')).toEqual([])

  events.problems([])
  expect(problemsFor(await problems(), broken)).toEqual({ count: 0, here: false })
  expect(await asked(broken)).toEqual([])
})

test("another site's page cannot ask for a page's problems", async () => {
  events = await startPropsEvents()
  events.problems([{ route: '/docs/internal/a', message: 'content/docs/internal/a.mdx:1:1: broken' }])
  const response = await fetch(`${events.url}/?${PROBLEMS_QUERY}=${routeToken('/docs/internal/a')}`, { headers: { origin: 'https://attacker.example' } })
  expect(response.status).toBe(403)
  expect(await response.text()).not.toContain('broken')
})
