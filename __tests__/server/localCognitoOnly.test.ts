/** @jest-environment node */
/** `npm start` and `npm run dev` asked for production: each says it serves the local Cognito only, and ends before starting anything. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')

test.each([
  ['npm start', 'scripts/start.mjs'],
  ['npm run dev', 'scripts/server/startDev.mjs'],
])('%s refuses DOCS_AUTH_MODE=production, naming the fix', (command, script) => {
  const run = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8', env: { ...process.env, DOCS_AUTH_MODE: 'production' }, timeout: 30_000 })
  expect(run.status).toBe(1)
  expect(run.stderr.trim()).toBe(`${command} serves the site with the local Cognito; unset DOCS_AUTH_MODE (a production build is for AWS, see docs/deploy.md).`)
})
