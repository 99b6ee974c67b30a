import { amplifyCookieHeader as cookieHeaderFor } from '../../lib/auth/amplifyCookies'
import { LOCAL_COGNITO } from '../../lib/auth/authSettings'

/** Signs in against the local Cognito the way the site's login does (USER_PASSWORD_AUTH) and returns the ID token. */
export async function signInIdToken(cognitoUrl: string, username: string, password: string): Promise<string> {
  return (await signInSession(cognitoUrl, username, password)).idToken
}

/** A sign-in's ID token and refresh token, as the site's login keeps them in its cookies. */
export async function signInSession(cognitoUrl: string, username: string, password: string): Promise<{ idToken: string; refreshToken: string }> {
  const response = await fetch(cognitoUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: LOCAL_COGNITO.userPoolClientId, AuthParameters: { USERNAME: username, PASSWORD: password } }),
  })
  const body = (await response.json()) as { AuthenticationResult?: { IdToken: string; RefreshToken: string }; message?: string }
  if (!response.ok || !body.AuthenticationResult) throw new Error(`sign-in as ${username} failed: ${body.message ?? response.status}`)
  return { idToken: body.AuthenticationResult.IdToken, refreshToken: body.AuthenticationResult.RefreshToken }
}

/** The Cookie header of a whole sign-in (ID and refresh token), as the browser holds it after /login. */
export function sessionCookieHeader(username: string, session: { idToken: string; refreshToken: string }, clientId: string = LOCAL_COGNITO.userPoolClientId): string {
  return cookieHeaderFor(clientId, username, session.idToken, session.refreshToken)
}

/** The Cookie header Amplify's CookieStorage produces for a signed-in user (only what the edge reads). */
export function amplifyCookieHeader(username: string, idToken: string, clientId: string = LOCAL_COGNITO.userPoolClientId): string {
  return cookieHeaderFor(clientId, username, idToken)
}

/** Adds a user to a group of the local Cognito's pool, or removes them (what an admin does in the console). */
export async function setGroupMembership(cognitoUrl: string, username: string, group: string, member: boolean): Promise<void> {
  const target = member ? 'AdminAddUserToGroup' : 'AdminRemoveUserFromGroup'
  const response = await fetch(cognitoUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify({ UserPoolId: LOCAL_COGNITO.userPoolId, Username: username, GroupName: group }),
  })
  if (!response.ok) throw new Error(`${target} ${username} ${group} failed: ${response.status}`)
}

/** Disables a user of the local Cognito's pool, or enables them again (what an admin does in the console). */
export async function setUserEnabled(cognitoUrl: string, username: string, enabled: boolean): Promise<void> {
  const target = enabled ? 'AdminEnableUser' : 'AdminDisableUser'
  const response = await fetch(cognitoUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify({ UserPoolId: LOCAL_COGNITO.userPoolId, Username: username }),
  })
  if (!response.ok) throw new Error(`${target} ${username} failed: ${response.status}`)
}
