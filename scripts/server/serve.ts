/** `npm start`'s last step: runs the local Cognito and the site until Ctrl-C. */
import { access, decide } from '../../lib/access'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { sectionPrefix } from '../../lib/access/sectionPaths'
import { demoUsers, SEEDED_PASSWORD, seededGroupsOf } from '../cognito/seed'
import { startLocalStack } from './startStack'
import { ACCESS_LOG_ENV } from './accessLogFile'
import { claudeCodeCommand, mcpUrlOf } from '../../lib/aiTools/connectLinks'

async function main() {
  // The access log goes to stdout unless DOCS_ACCESS_LOG names a file (or `off`).
  const accessLog = process.env[ACCESS_LOG_ENV] ?? '-'
  const stack = await startLocalStack({ accessLog })
  const sees = (username: string) => {
    const groups = seededGroupsOf(username)
    const sections = SECTIONS.filter((section) => decide(sectionPrefix(section.id), { username, groups }) === 'allow').map((section) => section.title)
    return sections.length ? sections.join(', ') : 'the home page only'
  }
  console.log(`\nThe docs site is running at ${stack.siteUrl}  (local Cognito at ${stack.cognitoUrl})\n`)
  console.log(`Demo logins (password for all: ${SEEDED_PASSWORD}):`)
  for (const username of demoUsers(access.members)) {
    const groups = seededGroupsOf(username)
    console.log(`  ${username.padEnd(11)} sees ${sees(username)}${groups.length ? ` (through the group ${groups.join(', ')})` : ''}`)
  }
  const mcpUrl = mcpUrlOf(stack.siteUrl)
  console.log(`\nAI tools (MCP): ${mcpUrl}; a tool signs in through the site's sign-in page. For Claude Code:`)
  console.log(`  ${claudeCodeCommand(mcpUrl)}`)
  console.log('  (then /mcp in Claude Code to sign in; docs/ai-tools.md has VS Code, Cursor and the others)')
  const logTo = accessLog === '-' ? 'below, one JSON line per page request and per refusal' : accessLog === '' || accessLog === 'off' ? 'off' : accessLog
  console.log(`\nAccess log: ${logTo} (${ACCESS_LOG_ENV}=<file>, - for stdout, off for none)`)
  console.log('\nPress Ctrl-C to stop.')
  const shutdown = () => stack.stop().then(() => process.exit(0))
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}

main().catch((error) => {
  console.error(`npm start: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
