/** Thrown when access.config.ts cannot be turned into rules; the build fails with its message. */
export class AccessConfigError extends Error {
  constructor(message: string) {
    super(`access.config.ts: ${message}`)
    this.name = 'AccessConfigError'
  }
}
