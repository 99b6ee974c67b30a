/**
 * `npm run dev` starts here. Next's dev server (./nextDevServer.cjs) is forked first of all, so that
 * Next's modules load while this process loads the rest (./dev.ts, TypeScript, through tsx), which
 * picks the ports and then sends the server the URLs it serves with. Forked from dev.ts, Next
 * started about 0.5 s later (docs/benchmarks.md). `start` forks another one when next.config.ts
 * changes.
 */
import { fork } from 'node:child_process'
import { createRequire } from 'node:module'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { endWithParent } from '../endWithParent.cjs'
import { refuseProductionMode } from '../localCognitoOnly.mjs'
import { refuseDocsSettingsInEnvFiles } from '../envFileSettings.cjs'

refuseProductionMode('npm run dev')
refuseDocsSettingsInEnvFiles(fileURLToPath(new URL('../..', import.meta.url)), 'npm run dev')

const server = fileURLToPath(new URL('./nextDevServer.cjs', import.meta.url))
/*
 * As `next dev` starts its server: half the machine's memory for its heap. Not with Node's
 * --enable-source-maps, which `next dev` adds: it made ready 0.3 s later, and Next's error overlay
 * maps its stacks itself (docs/benchmarks.md).
 */
const heapMb = Math.floor(os.totalmem() / 2 / 1024 / 1024)
const start = () => fork(server, [], { execArgv: [`--max-old-space-size=${heapMb}`], stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' } })
const first = start()
endWithParent()
await import('tsx')
// Required, not imported: dev.ts is CommonJS (as this package is), whose exports an import names only as its default.
const { runDev } = createRequire(import.meta.url)('./dev.ts')
runDev({ first, start })
