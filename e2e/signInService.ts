/** The sign-in service (Cognito) made unreachable, and a session made stale, as a browser meets them. */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BrowserContext, Route } from 'playwright-core'
import { TOKEN_MINUTES } from '../lib/auth/authSettings'
import { siteEnv } from './siteEnv'

/** Every request from the browser to the sign-in service fails, as when it is down or blocked. */
export async function blockSignInService(context: BrowserContext): Promise<{ blocked: () => number; unblock: () => Promise<void> }> {
  const { cognitoUrl } = siteEnv()
  const cognitoOrigin = new URL(cognitoUrl).origin
  let count = 0
  const matches = (url: URL) => url.origin === cognitoOrigin
  const handler = (route: Route) => {
    count += 1
    return route.abort('internetdisconnected')
  }
  await context.route(matches, handler)
  return { blocked: () => count, unblock: () => context.unroute(matches, handler) }
}

/**
 * Replaces the reader's ID token with the same token expired a minute ago, signed by the local
 * Cognito's key as the real one was: the edge refuses it as expired, and the browser sees that it
 * needs renewing. (The local Cognito's signing key ships with cognito-local; the edge of a local
 * build trusts it, a production build never does.)
 */
export async function expireIdToken(context: BrowserContext, username: string): Promise<void> {
  const { siteUrl } = siteEnv()
  const cookie = (await context.cookies(siteUrl)).find((each) => each.name.endsWith(`.${username}.idToken`))
  if (!cookie) throw new Error(`no ID token cookie for ${username}`)
  const [header, payload] = cookie.value.split('.')
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  const exp = Math.floor(Date.now() / 1000) - 60
  const body = Buffer.from(JSON.stringify({ ...claims, iat: exp - TOKEN_MINUTES * 60, auth_time: exp - TOKEN_MINUTES * 60, exp })).toString('base64url')
  const keyFile = path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib/keys/cognitoLocal.private.json')
  const key = crypto.createPrivateKey({ key: JSON.parse(fs.readFileSync(keyFile, 'utf8')).jwk, format: 'jwk' })
  const signature = crypto.sign('RSA-SHA256', Buffer.from(`${header}.${body}`), key).toString('base64url')
  await context.addCookies([{ ...cookie, value: `${header}.${body}.${signature}` }])
}
