/**
 * Where the local server writes the access log (edge/accessLog.ts): the same lines the edge sends
 * to CloudWatch Logs. `DOCS_ACCESS_LOG=<file>` appends to a file, `-` writes to stdout, `off` (or
 * empty) writes nothing. `npm start` defaults to stdout; the stacks that tests and benches start
 * write nothing unless the variable is set.
 */
import fs from 'node:fs'
import { accessLogLine, type AccessLogSink } from '../../edge/accessLog'

export const ACCESS_LOG_ENV = 'DOCS_ACCESS_LOG'

export interface AccessLogFile {
  /** `stdout` or the file's path, for the start-up banner. */
  destination: string
  write: AccessLogSink
  close(): void
}

/**
 * Opens the access log for a destination: a file path (appended to, created if missing), `-` for
 * stdout, or undefined, '' or `off` for none (null). Each line is written before the response is
 * sent (a synchronous write), so a request that was answered is in the log.
 */
export function openAccessLog(destination: string | undefined): AccessLogFile | null {
  if (destination === undefined || destination === '' || destination === 'off') return null
  if (destination === '-') return { destination: 'stdout', write: (record) => void process.stdout.write(accessLogLine(record) + '\n'), close: () => {} }
  let fd: number
  try {
    fd = fs.openSync(destination, 'a')
  } catch (error) {
    throw new Error(`${ACCESS_LOG_ENV}: cannot open ${destination} for the access log (${error instanceof Error ? error.message : error})`)
  }
  return {
    destination,
    write: (record) => void fs.writeSync(fd, accessLogLine(record) + '\n'),
    close: () => fs.closeSync(fd),
  }
}
