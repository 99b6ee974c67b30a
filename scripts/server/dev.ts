/**
 * `npm run dev`: Next's dev server with hot reload, plus the local Cognito so sign-in works.
 * There is no edge here: only the client guard applies, which is user interface, not security.
 */
import { spawn } from 'node:child_process'
import { LOCAL_COGNITO } from '../../lib/auth/authSettings'
import { startLocalCognito } from '../cognito/localCognito'
import { SEEDED_PASSWORD, SEEDED_USERS } from '../cognito/seed'

async function main() {
  const cognito = await startLocalCognito({ host: LOCAL_COGNITO.host, port: LOCAL_COGNITO.port, quiet: true })
  const port = process.env.PORT ?? '3000'
  console.log(`Local Cognito at ${cognito.url}; demo users ${SEEDED_USERS.join(', ')} (password ${SEEDED_PASSWORD})`)
  const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '-H', '127.0.0.1', '-p', port], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', DOCS_AUTH_MODE: 'local' },
  })
  const stop = async (code: number) => {
    next.kill('SIGTERM')
    await cognito.stop()
    process.exit(code)
  }
  next.on('exit', (code) => stop(code ?? 0))
  process.once('SIGINT', () => stop(0))
  process.once('SIGTERM', () => stop(0))
}

main().catch((error) => {
  console.error(`npm run dev: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
