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

test("a file of out/ edited in place, which edits its kept copy (one inode), is made again, whether out/ stays or is removed: a fault review's injected line in a page's Markdown survived `rm -rf out`", () => {
  const root = tempSite('kept-edited-')
  const out = path.join(root, 'out')
  const made: string[] = []
  const make = () => (made.push('made'), Buffer.from('# Intro'))
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  first.writeFrom('/docs/leads/intro.md', 'inputs-1', make)
  first.prune()
  for (const removeOut of [false, true]) {
    fs.appendFileSync(path.join(out, 'docs/leads/intro.md'), '\n> INJECTED BY HAND\n')
    expect(fs.readFileSync(path.join(root, CACHE_PATHS.markdownFiles, 'docs/leads/intro.md'), 'utf8')).toContain('INJECTED')
    if (removeOut) fs.rmSync(out, { recursive: true })
    const next = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
    expect(next.writeFrom('/docs/leads/intro.md', 'inputs-1', make)).toBe(true)
    next.prune()
    expect(fs.readFileSync(path.join(out, 'docs/leads/intro.md'), 'utf8')).toBe('# Intro')
    expect(next.written()).toEqual(['docs/leads/intro.md'])
  }
  expect(made).toHaveLength(3)
})

test('a file of the same inputs is not made again: out/ keeps it, or, emptied, gets it back from its kept copy; the step names what it put into out/', () => {
  const root = tempSite('kept-inputs-')
  const out = path.join(root, 'out')
  const made: string[] = []
  const make = (text: string) => () => (made.push(text), Buffer.from(text))
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(first.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))).toBe(true)
  first.prune()
  const inode = fs.statSync(path.join(out, 'docs/leads/intro.md')).ino

  const second = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(second.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))).toBe(false)
  second.prune()
  expect(fs.statSync(path.join(out, 'docs/leads/intro.md')).ino).toBe(inode)
  expect(second.written()).toEqual([])

  fs.rmSync(out, { recursive: true })
  const third = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(third.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))).toBe(false)
  third.prune()
  expect(fs.readFileSync(path.join(out, 'docs/leads/intro.md'), 'utf8')).toBe('# Intro')
  expect(made).toEqual(['# Intro'])
  expect(third.written()).toEqual(['docs/leads/intro.md'])

  const fourth = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(fourth.writeFrom('/docs/leads/intro.md', 'inputs-2', make('# Intro, edited'))).toBe(true)
  fourth.prune()
  expect(fs.readFileSync(path.join(out, 'docs/leads/intro.md'), 'utf8')).toBe('# Intro, edited')
  expect(fourth.written()).toEqual(['docs/leads/intro.md'])
})

test('a file a step wrote before it stopped half way (its record not saved) is removed when the next step does not write it', () => {
  const root = tempSite('kept-stopped-')
  const out = path.join(root, 'out')
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  first.writeFrom('/docs/leads/intro.md', 'a', () => Buffer.from('# Intro'))
  first.prune()
  const stopped = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  stopped.writeFrom('/docs/leads/intro.md', 'a', () => Buffer.from('# Intro'))
  stopped.writeFrom('/docs/leads/stray.md', 'b', () => Buffer.from('# Stray'))
  // No prune: the step stopped here.
  const next = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  next.writeFrom('/docs/leads/intro.md', 'a', () => Buffer.from('# Intro'))
  next.prune()
  expect(listFiles(out)).toEqual(['/docs/leads/intro.md'])
  expect(listFiles(path.join(root, CACHE_PATHS.markdownFiles))).toEqual(['/docs/leads/intro.md'])
})

test("a kept file where out/ now has a file in place of its folder (a public folder named like a page's Markdown, in a last build) is gone, not an error", () => {
  const root = tempSite('kept-not-a-folder-')
  const out = path.join(root, 'out')
  const first = openKeptFiles(root, out, CACHE_PATHS.publicFiles)
  first.write('/docs/leads/intro.md/x.svg', Buffer.from('<svg/>'))
  first.prune()
  // The Markdown step's file in its folder's place.
  fs.rmSync(path.join(out, 'docs/leads/intro.md'), { recursive: true })
  fs.writeFileSync(path.join(out, 'docs/leads/intro.md'), '# Intro')
  // The folder is gone from public/ (the content check refuses it): the step writes it no more.
  const next = openKeptFiles(root, out, CACHE_PATHS.publicFiles)
  expect(() => next.prune()).not.toThrow()
  expect(fs.readFileSync(path.join(out, 'docs/leads/intro.md'), 'utf8')).toBe('# Intro')
})

test('a folder whose last file the step no longer writes goes from out/ and from the kept copies; one holding another step\'s file stays', () => {
  const root = tempSite('kept-folders-')
  const out = path.join(root, 'out')
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  for (const key of ['/docs/leads/intro.md', '/docs/leads/moved/deep/away.md', '/docs/leads/shared/page.md']) first.write(key, Buffer.from(`# ${key}`))
  first.prune()
  fs.writeFileSync(path.join(out, 'docs/leads/shared/page.html'), 'a page the render step wrote')
  const second = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  second.write('/docs/leads/intro.md', Buffer.from('# /docs/leads/intro.md'))
  second.prune()
  expect(fs.readdirSync(path.join(out, 'docs/leads')).sort()).toEqual(['intro.md', 'shared'])
  expect(listFiles(out)).toEqual(['/docs/leads/intro.md', '/docs/leads/shared/page.html'])
  expect(fs.readdirSync(path.join(root, CACHE_PATHS.markdownFiles, 'docs/leads'))).toEqual(['intro.md'])
})

test('a file of the same inputs that a hand replaced in out/ gets its kept bytes back; with its kept copy gone too, it is made again', () => {
  const root = tempSite('kept-replaced-')
  const out = path.join(root, 'out')
  const made: string[] = []
  const make = (text: string) => () => (made.push(text), Buffer.from(text))
  const file = path.join(out, 'docs/leads/intro.md')
  const first = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  first.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))
  first.prune()

  // Replaced, not edited through the link: the kept copy keeps the step's bytes.
  fs.rmSync(file)
  fs.writeFileSync(file, '# Intro, by hand')
  const second = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(second.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))).toBe(false)
  second.prune()
  expect(fs.readFileSync(file, 'utf8')).toBe('# Intro')
  expect(second.written()).toEqual(['docs/leads/intro.md'])
  expect(made).toEqual(['# Intro'])

  fs.rmSync(file)
  fs.writeFileSync(file, '# Intro, by hand again')
  fs.rmSync(path.join(root, CACHE_PATHS.markdownFiles, 'docs/leads/intro.md'))
  const third = openKeptFiles(root, out, CACHE_PATHS.markdownFiles)
  expect(third.writeFrom('/docs/leads/intro.md', 'inputs-1', make('# Intro'))).toBe(true)
  third.prune()
  expect(fs.readFileSync(file, 'utf8')).toBe('# Intro')
  expect(third.written()).toEqual(['docs/leads/intro.md'])
  expect(made).toEqual(['# Intro', '# Intro'])
})
