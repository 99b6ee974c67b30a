/**
 * The environment variables the project's code reads, found in its source, so that a guide that
 * names one the code no longer reads fails (scripts/docs/checkGuides.ts). A name counts when the
 * code reads it:
 * - directly: `process.env.NAME`, `process.env['NAME']`, `env.NAME`, `env['NAME']`;
 * - through a constant: `env[NAME_ENV]` somewhere, with `NAME_ENV = 'NAME'` in the code;
 * - as a CDK setting: `read('contextKey', 'NAME')` (infra/lib/config.ts), or a federation setting
 *   `get('idpType')` read as its context key in upper snake case (infra/lib/federation.ts);
 * - as a list override: `DOCS_<LIST>` for each list of access.config.ts (lib/access/accessEnv.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { listEnvVar } from '../../lib/access/accessEnv'
import type { AccessConfig } from '../../lib/access/types'

const CODE = /\.(ts|tsx|mjs|js|cjs)$/
/** Installed, built or generated: not the project's own code. */
const SKIP = new Set(['node_modules', 'out', '.next', '.git', 'dist', 'cdk.out', 'coverage'])

function codeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return []
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return codeFiles(file)
    return entry.isFile() && CODE.test(entry.name) ? [file] : []
  })
}

const NAME = '[A-Z_][A-Z0-9_]*'
const DIRECT = new RegExp(`\\benv(?:\\.(${NAME})\\b|\\[\\s*['"\`](${NAME})['"\`]\\s*\\])`, 'g')
const COMPUTED = /\benv\[\s*([A-Za-z_$][\w$]*)\s*\]/g
const CONSTANT = new RegExp(`\\b([A-Za-z_$][\\w$]*)\\s*=\\s*['"\`](${NAME})['"\`]`, 'g')
const SETTING = new RegExp(`\\bread\\(\\s*['"][\\w-]+['"]\\s*,\\s*['"](${NAME})['"]\\s*\\)`, 'g')
const FEDERATION_KEY = /\bget\(\s*'(idp[A-Za-z]+)'\s*\)/g

const upperSnake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()

/** Every environment variable the code under `root` reads, given the access configuration's lists. */
export function envNamesReadByCode(root: string, access: Pick<AccessConfig, 'lists'>): Set<string> {
  const names = new Set<string>()
  const sources = codeFiles(root).map((file) => fs.readFileSync(file, 'utf8'))
  const computedKeys = new Set<string>()
  for (const source of sources) {
    for (const match of source.matchAll(DIRECT)) names.add(match[1] ?? match[2])
    for (const match of source.matchAll(COMPUTED)) computedKeys.add(match[1])
    for (const match of source.matchAll(SETTING)) names.add(match[1])
    for (const match of source.matchAll(FEDERATION_KEY)) names.add(upperSnake(match[1]))
  }
  for (const source of sources) {
    for (const match of source.matchAll(CONSTANT)) if (computedKeys.has(match[1])) names.add(match[2])
  }
  for (const list of Object.keys(access.lists)) names.add(listEnvVar(list))
  return names
}
