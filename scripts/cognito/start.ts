/**
 * Runs the embedded local Cognito until Ctrl-C:  npx tsx scripts/cognito/start.ts
 * Every start is a fresh pool (nothing persists between runs).
 */
import { LOCAL_COGNITO, issuerFor } from '../../lib/auth/authSettings'
import { startLocalCognito } from './localCognito'
import { demoUsers, SEEDED_PASSWORD } from './seed'
import { access } from '../../lib/access'

async function main(): Promise<void> {
  const cognito = await startLocalCognito({ host: LOCAL_COGNITO.host, port: LOCAL_COGNITO.port })
  console.log(
    [
      `Local Cognito listening on ${cognito.url}`,
      `  user pool  ${LOCAL_COGNITO.userPoolId}  (issuer ${issuerFor(LOCAL_COGNITO)})`,
      `  app client ${LOCAL_COGNITO.userPoolClientId}`,
      `  JWKS       ${cognito.jwksUrl}`,
      `  users      ${demoUsers(access.members).join(', ')}`,
      `  password   ${SEEDED_PASSWORD}  (same for every user)`,
      'Press Ctrl-C to stop.',
    ].join('\n')
  )

  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping local Cognito`)
    cognito.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err)
        process.exit(1)
      }
    )
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
