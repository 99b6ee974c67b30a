import fs from 'node:fs'
import path from 'node:path'

/** Build output, caches and local state: never part of a copy. */
const SKIP = new Set(['node_modules', '.next', '.cache', 'out', '.git', 'edge/dist', 'mcp/dist', 'e2e/inspector/node_modules', 'infra/cdk.out', '.artifacts', 'test-results', 'bench/results.json'])

/** A copy of the project to build or measure in, sharing node_modules; the working tree is never touched. */
export function copyProject(root: string, dest: string): void {
  fs.rmSync(dest, { recursive: true, force: true })
  fs.cpSync(root, dest, {
    recursive: true,
    filter: (source) => !SKIP.has(path.relative(root, source).split(path.sep).join('/')),
    verbatimSymlinks: true,
  })
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dest, 'node_modules'))
}
