/**
 * @jest-environment node
 *
 * `next build` loads the sign-in page's modules in Node (collecting page data, prerendering), and
 * the page imports lib/auth/amplifySession, which configures Amplify when loaded. That must print
 * nothing into the build's output: Amplify's custom-endpoint warning was printed twice per build.
 */
import { Amplify } from 'aws-amplify'

test("loading the sign-in page's Amplify module on the server, as static generation does, configures nothing and logs nothing", async () => {
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => jest.spyOn(console, level).mockImplementation(() => {}))
  try {
    expect(typeof window).toBe('undefined')
    await import('../../lib/auth/amplifySession')
    expect(spies.flatMap((spy) => spy.mock.calls)).toEqual([])
    // (getConfig itself warns that Amplify is not configured: that is the point.)
    expect(Amplify.getConfig().Auth).toBeUndefined()
  } finally {
    spies.forEach((spy) => spy.mockRestore())
  }
})
