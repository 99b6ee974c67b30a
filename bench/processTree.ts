import { execFileSync, spawn } from 'node:child_process'

export interface RunFigures {
  seconds: number
  /** The largest sum of RSS over the whole process tree, sampled every 250 ms. */
  peakTreeMb: number
  ok: boolean
  /** The end of what the command printed (its last 20 kB). */
  stdout: string
}

function treeRssKb(rootPid: number): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
  const children = new Map<number, number[]>()
  const rss = new Map<number, number>()
  for (const line of table.trim().split('\n')) {
    const [pid, ppid, kb] = line.trim().split(/\s+/).map(Number)
    rss.set(pid, kb)
    children.set(ppid, [...(children.get(ppid) ?? []), pid])
  }
  let total = 0
  const stack = [rootPid]
  while (stack.length) {
    const pid = stack.pop()!
    total += rss.get(pid) ?? 0
    stack.push(...(children.get(pid) ?? []))
  }
  return total
}

/** Runs a command, timing it and sampling its process tree's memory. */
export function measure(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunFigures> {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout = (stdout + chunk).slice(-20_000)))
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    let peak = 0
    const timer = setInterval(() => {
      try {
        peak = Math.max(peak, treeRssKb(child.pid!))
      } catch {
        // ps can race with a process exiting; the next sample counts.
      }
    }, 250)
    child.on('exit', (code) => {
      clearInterval(timer)
      if (code !== 0) process.stderr.write(`bench: ${command} ${args.join(' ')} failed in ${cwd}:\n${stderr}\n`)
      resolve({ seconds: (Date.now() - started) / 1000, peakTreeMb: Math.round(peak / 1024), ok: code === 0, stdout })
    })
  })
}
