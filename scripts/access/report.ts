/**
 * `npm run access:report` (./reportCommand.ts says what it does). Its modules read access.config.ts
 * as they load (lib/access compiles it once), so a mistake there is an error of the import: said
 * here in one line, as the build says it, not as a stack.
 */
import('./reportCommand').catch((error: unknown) => {
  console.error(`access:report: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
