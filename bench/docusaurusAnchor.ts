/**
 * The Docusaurus reference the build is compared with: Docusaurus 3.10 with Rspack (Docusaurus
 * Faster), scaffolded by ../shared/anchors/run.sh and fed the same deterministic pages as our
 * build (gen-pages.mjs). See ../shared/anchors/README.md.
 *
 * DOCS_ANCHORS_SRC: the anchors folder (run.sh, gen-pages.mjs); default ../shared/anchors from the repo.
 * ANCHORS_DIR: where run.sh installs the references; default /tmp/anchors, as run.sh's own default.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { measure, type RunFigures } from './processTree'

/** The anchors folder, checked to hold run.sh and gen-pages.mjs. */
export function anchorsSource(repoRoot: string, env: Record<string, string | undefined> = process.env): string {
  const dir = path.resolve(repoRoot, env.DOCS_ANCHORS_SRC || '../shared/anchors')
  const missing = ['run.sh', 'gen-pages.mjs'].filter((name) => !fs.existsSync(path.join(dir, name)))
  if (missing.length) {
    const how = env.DOCS_ANCHORS_SRC ? `DOCS_ANCHORS_SRC=${env.DOCS_ANCHORS_SRC}` : 'the default ../shared/anchors (set DOCS_ANCHORS_SRC to the anchors folder)'
    throw new Error(`no Docusaurus anchors at ${dir}: ${missing.join(' and ')} missing; from ${how}`)
  }
  return dir
}

/** Where run.sh installs the references. */
export function anchorsDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env.ANCHORS_DIR || '/tmp/anchors')
}

/** The Docusaurus site folder under `dir`, installed by `run.sh setup` the first time. */
export function ensureDocusaurus(source: string, dir: string): string {
  const site = path.join(dir, 'docusaurus')
  if (!fs.existsSync(path.join(site, 'node_modules/.bin/docusaurus'))) {
    process.stderr.write(`bench: installing the Docusaurus reference under ${dir} (run.sh setup, a few minutes)…\n`)
    // setup also installs the bare Nextra 3 reference; it is not used here but costs only install time.
    // Its npm output goes to stderr so that stdout stays the table.
    execFileSync('bash', [path.join(source, 'run.sh'), 'setup'], { env: { ...process.env, ANCHORS_DIR: dir }, stdio: ['ignore', process.stderr, process.stderr] })
  }
  return site
}

/** Writes the N deterministic pages in `flavor`'s layout into `dir` (replacing earlier ones). */
export function generateAnchorPages(source: string, dir: string, pages: number, flavor: 'docusaurus' | 'nextra'): void {
  execFileSync(process.execPath, [path.join(source, 'gen-pages.mjs'), dir, String(pages), flavor], { stdio: ['ignore', 'ignore', process.stderr] })
}

/** A clean Docusaurus build with Rspack: no cache, no earlier output, as run.sh measures it. */
export function measureDocusaurus(site: string): Promise<RunFigures> {
  for (const name of ['.docusaurus', 'build', 'node_modules/.cache']) fs.rmSync(path.join(site, name), { recursive: true, force: true })
  return measure(path.join(site, 'node_modules/.bin/docusaurus'), ['build'], site, { ...process.env, DOCUSAURUS_FASTER: '1' })
}
