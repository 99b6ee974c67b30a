import { READER_VIEW_PATH, anonymousView } from '../../lib/access/readerView'
import { fetchReaderView } from '../../lib/auth/fetchReaderView'

const view = { ...anonymousView(['/login']), username: 'leads1' }
const answer = (body: unknown, ok = true) => jest.fn(async () => ({ ok, status: ok ? 200 : 500, json: async () => body })) as unknown as typeof fetch

afterEach(() => {
  delete window.__docsReaderView
})

test("the page's first answer is shared with the route-manifest loader: one request", async () => {
  global.fetch = answer(view)
  window.__docsReaderView = Promise.resolve(view)
  expect(await fetchReaderView()).toEqual(view)
  expect(global.fetch).not.toHaveBeenCalled()
})

test('a failed shared request is asked again; a fresh request always asks', async () => {
  global.fetch = answer(view)
  window.__docsReaderView = Promise.reject(new Error('offline'))
  expect(await fetchReaderView()).toEqual(view)
  expect(await fetchReaderView(true)).toEqual(view)
  expect(global.fetch).toHaveBeenCalledTimes(2)
  expect(global.fetch).toHaveBeenCalledWith(READER_VIEW_PATH, expect.objectContaining({ credentials: 'same-origin', cache: 'no-store' }))
})

test('an answer that is not a reader view, or an error status, is refused and not kept', async () => {
  global.fetch = answer({ username: 'x' })
  await expect(fetchReaderView()).rejects.toThrow('not a reader view')
  expect(window.__docsReaderView).toBeUndefined()
  global.fetch = answer(view, false)
  await expect(fetchReaderView()).rejects.toThrow('answered 500')
})
