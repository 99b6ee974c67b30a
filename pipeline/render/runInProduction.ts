/**
 * Runs one of Next's processes for the render step (`next build`, or ./renderWithNext.cjs) as the
 * build runs them: a production process whatever the caller's NODE_ENV (a test runner sets "test"),
 * with a JavaScript heap sized to the site, in its own process (Next owns its process: workers,
 * exit codes, signals). Resolves when it exits 0; else names `what` failed.
 */
import { spawn } from 'node:child_process'

export async function runInProduction(what: string, command: string, args: string[], options: { cwd: string; heapMb: number; env?: Record<string, string> }): Promise<void> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      NODE_ENV: 'production',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${options.heapMb}`.trim(),
    }
    const child = spawn(command, args, { cwd: options.cwd, stdio: 'inherit', env })
    child.on('error', reject)
    child.on('exit', resolve)
  })
  if (code !== 0) throw new Error(`${what} failed (exit ${code})`)
}
