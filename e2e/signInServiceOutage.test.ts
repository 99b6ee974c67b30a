/**
 * When the browser cannot reach the sign-in service (Cognito): a reader coming back with an
 * expired session is told so instead of being handed the password form, keeps their session, and
 * reads on with no password once the service is back; the sign-in form says it met a network error.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { freshPagePerTest, signInThroughForm, watchErrors } from './browser'
import { blockSignInService, expireIdToken } from './signInService'
import { PASSWORD, siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

const storedTokens = async (context: BrowserContext, username: string) =>
  (await context.cookies(siteUrl)).filter((cookie) => cookie.name.includes(`.${username}.`) && /(idToken|refreshToken)$/.test(cookie.name)).map((cookie) => cookie.name.split('.').pop())

test('a reader whose session expired while the sign-in service is down is told it cannot be reached, keeps their session, and reads on with no password once it is back', async () => {
  const errors = watchErrors(page)
  const context = page.context()
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await expireIdToken(context, 'leads1')
  const service = await blockSignInService(context)
  // Remembers, across page loads, whether the password field was ever on screen.
  await context.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('input[type="password"]')) sessionStorage.setItem('passwordFormShown', 'yes')
    }).observe(document, { childList: true, subtree: true })
  })
  const passwordFormShown = () => page.evaluate(() => sessionStorage.getItem('passwordFormShown') === 'yes')

  // The edge no longer accepts the token, so the reader lands on the sign-in page.
  await page.goto(siteUrl + '/docs/leads/environments')
  await page.waitForURL(/\/login\?next=%2Fdocs%2Fleads%2Fenvironments$/)
  const notice = page.getByRole('alert').filter({ hasText: 'The sign-in service cannot be reached' })
  // Every attempt failed (Amplify's 3, and none of the site's on top): the reader may try again.
  await notice.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15000 })
  await expect(notice.textContent()).resolves.not.toContain('Retrying')
  await page.waitForTimeout(1500)
  expect(service.blocked()).toBe(3)
  expect(await passwordFormShown()).toBe(false)
  expect(await storedTokens(context, 'leads1')).toEqual(expect.arrayContaining(['idToken', 'refreshToken']))

  // Still down: trying again retries, says so meanwhile, and still keeps the session.
  await notice.getByRole('button', { name: 'Try again' }).click()
  await notice.getByText('Retrying').waitFor()
  await notice.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15000 })
  await page.waitForTimeout(1500)
  expect(service.blocked()).toBe(6)
  expect(await passwordFormShown()).toBe(false)

  // The service is back: trying again renews the session and takes the reader to their page.
  await service.unblock()
  await notice.getByRole('button', { name: 'Try again' }).click()
  await page.waitForURL((url) => url.pathname === '/docs/leads/environments', { timeout: 15000 })
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await page.locator('.nextra-nav-container').getByText('leads1', { exact: true }).waitFor()
  expect(await passwordFormShown()).toBe(false)
  expect(errors).toEqual([])
})

test('a reader whose session expired while the sign-in service was down reads on after a reload once it is back', async () => {
  const context = page.context()
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await expireIdToken(context, 'leads1')
  const service = await blockSignInService(context)
  await page.goto(siteUrl + '/docs/leads/intro')
  await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15000 })
  await service.unblock()
  await page.reload()
  await page.waitForURL((url) => url.pathname === '/docs/leads/intro', { timeout: 15000 })
  await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
})

test('with the sign-in service down, the sign-in form says a network error has occurred, in its dismissible alert', async () => {
  await blockSignInService(page.context())
  await page.goto(siteUrl + '/login?next=%2Fdocs%2Fleads%2Fintro')
  await page.getByLabel('Username').fill('leads1')
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const alert = page.locator('.amplify-alert')
  await alert.waitFor({ timeout: 15000 })
  await expect(alert.textContent()).resolves.toContain('A network error has occurred.')
  await alert.getByRole('button').click()
  await expect(page.locator('.amplify-alert').count()).resolves.toBe(0)
  expect(new URL(page.url()).pathname).toBe('/login')
})
