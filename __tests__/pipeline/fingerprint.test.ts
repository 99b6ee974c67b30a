/**
 * @jest-environment node
 *
 * A cached page is reused only while nothing its compile ran has changed: every file of the
 * project that the compile workers load or read must be in the fingerprint, or an edit of it
 * would leave pages compiled by the old code in the cache.
 */
import fs from 'node:fs'
import path from 'node:path'
import { COMPILER_FILES, COMPILER_ROOT } from '../../pipeline/compile/fingerprint'

/** The project's files a module imports or reads by a path relative to itself, and theirs, from `start`. */
function filesLoadedFrom(start: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = fs.readFileSync(path.join(COMPILER_ROOT, file), 'utf8')
    const relative = [...source.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'|new URL\('(\.{1,2}\/[^']+)', import\.meta\.url\)/g)].map((match) => match[1] ?? match[2])
    for (const specifier of relative) {
      const target = path.posix.join(path.posix.dirname(file), specifier)
      if (/\.(mjs|cjs|js)$/.test(target)) visit(target)
      else seen.add(target)
    }
  }
  visit(start)
  return [...seen].sort()
}

test('every project file the compile workers load or read is in the compile fingerprint', () => {
  const loaded = filesLoadedFrom('pipeline/compile/compileWorker.mjs')
  expect(loaded).toEqual(expect.arrayContaining(['pipeline/compile/pageSanitizer.mjs', 'pipeline/compile/characterReferences.cjs', 'lib/render/codeInPages.json']))
  expect(loaded.filter((file) => !(COMPILER_FILES as readonly string[]).includes(file))).toEqual([])
})
