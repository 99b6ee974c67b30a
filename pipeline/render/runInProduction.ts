/**
 * Runs one of Next's processes for the render step (`next build`, or ./renderWithNext.cjs) as the
 * build runs them: a production process whatever the caller's NODE_ENV (a test runner sets "test"),
 * with the JavaScript heap the caller names, in its own process (Next owns its process: workers,
 * exit codes, signals). Resolves when it exits 0; else names `what` failed. Next's telemetry is off
 * in each: a build of an internal site sends nothing about it to Vercel, however it is started
 * (`npm run build`, `build:prod`, a deploy pipeline), not only from `npm start` and `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

export interface ProductionOptions {
  cwd: string
  /** Its JavaScript heap limit; null leaves Node's own. */
  heapMb: number | null
  env?: Record<string, string>
  /** Its standard input as a pipe the caller writes to (closed when the caller's process ends); else the caller's. */
  input?: boolean
}

/**
 * Ends a process once its parent is gone: a build killed outright left `next build` writing into
 * .next/ and out/. Given as Node's own `--require`, not in NODE_OPTIONS (Next rewrites that for its
 * workers, and joined two `--require`s into one path); its workers, forked, inherit Node's arguments.
 */
const END_WITH_PARENT = path.resolve(__dirname, '../../scripts/endWithParentPreload.cjs')

/** Node's arguments for one of Next's processes: `args` (a script and its arguments), ended with its parent. */
export const productionNodeArgs = (args: readonly string[]) => ['--require', END_WITH_PARENT, ...args]

/** Starts Node with `args` (a script and its arguments); `exited` resolves when it exits 0, and otherwise rejects, naming `what`. */
export function startInProduction(what: string, args: readonly string[], options: ProductionOptions): { child: ChildProcess; exited: Promise<void> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''}${options.heapMb === null ? '' : ` --max-old-space-size=${options.heapMb}`}`.trim(),
  }
  const child = spawn(process.execPath, productionNodeArgs(args), { cwd: options.cwd, stdio: [options.input ? 'pipe' : 'inherit', 'inherit', 'inherit'], env })
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code})`))))
  })
  return { child, exited }
}

export function runInProduction(what: string, args: readonly string[], options: ProductionOptions): Promise<void> {
  return startInProduction(what, args, options).exited
}
