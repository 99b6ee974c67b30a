/**
 * Thrown when access.config.ts cannot be turned into rules; the build fails with its message, which
 * names where the faulty setting was written: the file, or the variable that replaced one of its lists.
 */
export class AccessConfigError extends Error {
  constructor(message: string, source = 'access.config.ts') {
    super(`${source}: ${message}`)
    this.name = 'AccessConfigError'
  }
}
