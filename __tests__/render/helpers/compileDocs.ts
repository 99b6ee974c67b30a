/**
 * Compiles pages with the content step's worker, in a child Node (the compiler is ES modules):
 * for each file the worker's message, with its PageDocument and, for the equivalence tests,
 * Nextra's JS module of the same compile.
 */
import { scanContent } from '../../../pipeline/content/contentSource'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { compilePages } from '../../../pipeline/compile/compilePages'
import { compileWorkerData } from '../../../pipeline/compile/compileWorkers'
import { sha256 } from '../../../pipeline/files'
import type { PageDocument } from '../../../lib/render/pageDocument'

export const project = path.resolve(__dirname, '../../..')

export type WorkerMessage =
  | { ok: true; output: PageDocument; module: string }
  | { ok: false; error: { reason: string; line?: number; column?: number; deterministic: boolean } }

/** The site's highlighter as the pool's workers import it; a small compile makes it when absent. */
async function highlighter(): Promise<string> {
  const source = fs.readFileSync(path.join(project, 'pipeline/onDemandHighlighter.ts'), 'utf8')
  const file = path.join(project, '.cache/compiler', `onDemandHighlighter-${sha256(source).slice(0, 16)}.mjs`)
  if (!fs.existsSync(file)) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'render-'))
    fs.mkdirSync(path.join(root, 'content'))
    fs.writeFileSync(path.join(root, 'content/index.mdx'), '# Home\n')
    await compilePages(scanContent(root), undefined, { workers: 1 })
    fs.rmSync(root, { recursive: true, force: true })
  }
  return file
}

/** Compiles `files` (relative to `root`) with the worker; nothing is cached or written. */
export async function compileWithWorker(root: string, files: string[]): Promise<Record<string, WorkerMessage>> {
  const stdout = execFileSync(process.execPath, [path.join(__dirname, '../fixtures/compileWithWorker.mjs'), JSON.stringify(compileWorkerData(await highlighter())), root, ...files], {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  })
  return JSON.parse(stdout)
}
