/**
 * `npm run dev` starts here. Next's dev server (./nextDevServer.cjs) is forked first of all, so that
 * Next's modules load while this process loads the rest (./dev.ts, TypeScript, through tsx), which
 * picks the ports and then sends the server the URLs it serves with. Forked from dev.ts, Next
 * started about 0.4 s later (docs/benchmarks.md). `start` forks another one when next.config.ts
 * changes.
 */
import { fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const server = fileURLToPath(new URL('./nextDevServer.cjs', import.meta.url))
const start = () => fork(server, [], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' } })
const first = start()
await import('tsx')
// Required, not imported: dev.ts is CommonJS (as this package is), whose exports an import names only as its default.
const { runDev } = createRequire(import.meta.url)('./dev.ts')
runDev({ first, start })
