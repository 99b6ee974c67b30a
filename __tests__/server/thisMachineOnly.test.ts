/**
 * @jest-environment node
 *
 * The servers `npm start` and `npm run dev` run answer this machine's pages and tools only
 * (scripts/server/thisMachineOnly.cjs): a page of another site, or one reached through a host name
 * an attacker points at 127.0.0.1 (DNS rebinding), is refused. The servers' own tests send such
 * requests to each (e2e/serverAttacks.test.ts, __tests__/integration/devServer.test.ts).
 */
import { foreignRequest } from '../../scripts/server/thisMachineOnly.cjs'

test.each([
  [{}, '/'],
  [{ host: '127.0.0.1:3000' }, '/'],
  [{ host: 'localhost:3000' }, '/'],
  [{ host: 'LOCALHOST.' }, '/'],
  [{ host: '[::1]:3000' }, '/'],
  [{ host: 'docs.localhost:3000', origin: 'http://docs.localhost:3000' }, '/'],
  [{ host: '127.0.0.1:9229', origin: 'http://127.0.0.1:3000' }, '/'],
  [{ host: '127.0.0.1:3000', origin: 'http://localhost:6274' }, '/'],
  // Another port of this machine is the same site; a link followed from another site opens a page.
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' }, '/'],
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, '/docs/leads/intro'],
  // The site opened as localhost calls the local Cognito at 127.0.0.1: cross-site to the browser, with this machine's Origin.
  [{ host: '127.0.0.1:9229', origin: 'http://localhost:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }, '/'],
])('a request of this machine passes: %p %s', (headers, url) => {
  expect(foreignRequest(headers, url)).toBeNull()
})

// A page of another site loads an image or a script with no Origin: only the browser's Sec-Fetch-Site tells.
test.each([
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, '/__nextjs_launch-editor?file=/home/writer/.ssh/config'],
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, '/_next/static/chunks/pages/_app.js'],
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, '/docs/internal/images/overview.png'],
  // A link from another site may open a page, never Next's own endpoints.
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, '/__nextjs_launch-editor?file=/etc/hosts'],
  [{ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, '/_next/static/chunks/main.js'],
])("a page of another site's request with no Origin is refused (a review: Next's editor endpoint opened a file): %p %s", (headers, url) => {
  expect(foreignRequest(headers, url)).toBe('a page of another site sent it')
})

test.each([
  [{ host: 'evil.example:3000' }, 'its Host (evil.example:3000) is not this machine'],
  [{ host: '127.0.0.1.evil.example' }, 'its Host (127.0.0.1.evil.example) is not this machine'],
  [{ host: 'localhost.evil.example:3000' }, 'its Host (localhost.evil.example:3000) is not this machine'],
  [{ host: '127.0.0.2:3000' }, 'its Host (127.0.0.2:3000) is not this machine'],
  [{ host: '' }, 'its Host () is not this machine'],
  [{ host: 'a b' }, 'its Host (a b) is not this machine'],
  [{ host: '127.0.0.1:3000', origin: 'https://evil.example' }, 'a page of https://evil.example sent it'],
  [{ host: '127.0.0.1:3000', origin: 'null' }, 'a page of null sent it'],
  [{ host: '127.0.0.1:3000', origin: 'http://127.0.0.1.evil.example:3000' }, 'a page of http://127.0.0.1.evil.example:3000 sent it'],
  [{ host: '127.0.0.1:3000', origin: 'file://' }, 'a page of file:// sent it'],
])('a request from elsewhere is refused, saying why: %p', (headers, why) => {
  expect(foreignRequest(headers)).toBe(why)
})
