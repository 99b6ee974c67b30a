/**
 * The reader as the user pool knows them now: whether they still exist and are enabled, and their
 * groups. The authorization server asks at every refresh of an AI tool's token, so a reader who
 * was disabled or deleted gets no new token, and one whose groups changed gets the new ones.
 * (A reader who signs out everywhere on the site revokes their tools' grants outright.)
 */
import { AdminGetUserCommand, AdminListGroupsForUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider'
import type { AccessUser } from '../../lib/access/types'
import type { AuthSettings } from '../../lib/auth/authSettings'
import { groupsOf } from '../../edge/tokenVerifier'

/** The reader now, or null when the pool has no enabled user of that name. Throws when the pool cannot be asked. */
export type CheckReader = (username: string) => Promise<NonNullable<AccessUser> | null>

export function cognitoReaderCheck(auth: Pick<AuthSettings, 'region' | 'userPoolId' | 'endpoint' | 'mode'>, groupsClaim: string | null): CheckReader {
  const client = new CognitoIdentityProviderClient({
    region: auth.region,
    // The local Cognito takes any credentials; on AWS the function's role signs the calls.
    ...(auth.mode === 'local' ? { endpoint: auth.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  })
  return async (username) => {
    let user
    try {
      user = await client.send(new AdminGetUserCommand({ UserPoolId: auth.userPoolId, Username: username }))
    } catch (error) {
      if ((error as { name?: string }).name === 'UserNotFoundException') return null
      throw error
    }
    if (user.Enabled === false) return null
    const groups: string[] = []
    let next: string | undefined
    do {
      const page = await client.send(new AdminListGroupsForUserCommand({ UserPoolId: auth.userPoolId, Username: username, NextToken: next }))
      for (const group of page.Groups ?? []) if (group.GroupName) groups.push(group.GroupName)
      next = page.NextToken
    } while (next)
    const attributes = Object.fromEntries((user.UserAttributes ?? []).map((attribute) => [attribute.Name, attribute.Value]))
    return { username, groups: groupsOf({ 'cognito:groups': groups, ...attributes }, groupsClaim) }
  }
}
