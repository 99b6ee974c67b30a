/**
 * What the content scan keeps of each page it read, in the page store (../store/pageStore.ts), so
 * that the next scan takes an unchanged page from the record instead of reading and hashing it.
 * As git's index and the build's record of out/ do, a file is known by its stamp (../files.ts):
 * while it is the one recorded, its bytes are taken to be the ones read, under the racy-time rule
 * there; a file read too soon after its write is read again by the next scan.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { sha256, type FileStamp } from '../files'
import type { FoundLink } from './pageLinks'

/** A page as the scan last read it: its stamp then, and what the steps take of it without its text. */
export interface ScannedPage extends FileStamp {
  /** sha256 of the MDX, hex. */
  digest: string
  frontMatter: Record<string, unknown>
  bodyBytes: number
  links: readonly FoundLink[]
  codeLanguages: readonly string[]
}

/** A `_meta` file as the scan last read it: its stamp then, its data and its links. */
export interface ScannedMeta extends FileStamp {
  data: Record<string, unknown>
  links: readonly FoundLink[]
}

/** The scan's record: its pages and `_meta` files by file, and the parsers that made their entries (scanParsers: others make others). */
export interface ScanRecord {
  parsers: string
  pages: Record<string, ScannedPage>
  metas?: Record<string, ScannedMeta>
}

/** The project the parsers' code comes from, also when a build scans another site's folder (a test's small site). */
const PARSER_ROOT = path.resolve(__dirname, '../..')

/**
 * The modules whose code makes a record's entries from a file's text: the front matter and body,
 * a `_meta` file's data, the links. A fix or an upgrade of one changes what a file reads as, so a
 * record made before it must not be trusted (__tests__/pipeline/scanRecord.test.ts checks that
 * whatever they import of the project is listed).
 */
export const SCAN_PARSER_FILES = ['pipeline/content/fileText.ts', 'pipeline/content/frontMatter.ts', 'pipeline/content/metaData.ts', 'pipeline/content/pageLinks.ts', 'pipeline/content/contentError.ts', 'pipeline/content/pageSettings.ts', 'lib/plainText.mjs'] as const

/** The packages they parse with, as each is resolved: YAML is Nextra's own copy (./frontMatter.ts). */
function parserPackages(): string[] {
  const fromNextra = createRequire(require.resolve('nextra/package.json', { paths: [PARSER_ROOT] }))
  const versionOf = (packageJson: string) => (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version
  return [`yaml@${versionOf(fromNextra.resolve('yaml/package.json'))}`, `typescript@${versionOf(require.resolve('typescript/package.json', { paths: [PARSER_ROOT] }))}`]
}

let parsers: string | undefined

/** The digest of the parsers' code and packages, read once per process: a record is used only when it was made by the same. */
export function scanParsers(): string {
  return (parsers ??= sha256(JSON.stringify({ files: SCAN_PARSER_FILES.map((file) => [file, sha256(fs.readFileSync(path.join(PARSER_ROOT, file)))]), packages: parserPackages() })))
}

