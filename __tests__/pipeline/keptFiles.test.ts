/** @jest-environment node */
/**
 * A step's files kept in .cache/ and linked into out/ (pipeline/steps/keptFiles.ts), now that out/
 * stays from one build to the next: a file the step no longer writes leaves out/ too.
 */
import fs from 'node:fs'
import path from 'node:path'
import { openKeptFiles } from '../../pipeline/steps/keptFiles'
import { CACHE_PATHS } from '../../pipeline/steps/paths'
import { listFiles } from '../../pipeline/files'
import { tempSite } from '../fixtures/tempSite'

test("a file not written again is removed from out/ with its kept copy; an unchanged one keeps its inode; another step's file stays", () => {
  const root = tempSite('kept-files-')
  const out = path.join(root, 'out')
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  first.write('/docs/leads/intro.md', Buffer.from('# Intro'))
  first.write('/docs/leads/gone.md', Buffer.from('# Gone'))
  first.prune()
  fs.writeFileSync(path.join(out, 'docs/leads/intro.html'), 'a page the render step wrote')
  const inode = fs.statSync(path.join(out, 'docs/leads/intro.md')).ino

  const second = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(second.write('/docs/leads/intro.md', Buffer.from('# Intro'))).toBe(false)
  second.prune()
  expect(listFiles(out)).toEqual(['/docs/leads/intro.html', '/docs/leads/intro.md'])
  expect(fs.statSync(path.join(out, 'docs/leads/intro.md')).ino).toBe(inode)
  expect(listFiles(path.join(root, CACHE_PATHS.markdownFiles))).toEqual(['/docs/leads/intro.md'])
})
