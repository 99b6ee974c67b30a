/**
 * @jest-environment node
 *
 * What `npm run dev` sees of a writer's saves (scripts/server/treeWatch.ts): every save of a page,
 * however the editor writes it. Node 20's recursive watch lost a page once an editor had saved it
 * by writing a copy and renaming it over the page: its later saves, and its deletion, went unseen.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { watchTree, type TreeWatch } from '../../scripts/server/treeWatch'

let root: string
let watch: TreeWatch | undefined
const seen: string[] = []
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-watch-'))
  fs.mkdirSync(path.join(root, 'docs/leads'), { recursive: true })
  fs.writeFileSync(path.join(root, 'docs/leads/intro.mdx'), '# Intro\n')
  seen.length = 0
  watch = watchTree(root, (_event, name) => seen.push(name ?? '?'))
})
afterEach(() => {
  watch?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** Runs `save`, then waits until the watcher has named `name` (or fails after 2 s). */
async function sees(name: string, save: () => void): Promise<void> {
  seen.length = 0
  save()
  for (let waited = 0; !seen.includes(name); waited += 20) {
    if (waited > 2000) throw new Error(`the watcher did not see ${name}; it saw ${JSON.stringify(seen)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const page = 'docs/leads/intro.mdx'
const file = () => path.join(root, page)
const saveByRename = (text: string) => () => {
  fs.writeFileSync(file() + '.tmp', text)
  fs.renameSync(file() + '.tmp', file())
}

test('a page saved by rename, again, then in place, then deleted: each is seen', async () => {
  await sees(page, saveByRename('# Intro, once\n'))
  await sees(page, saveByRename('# Intro, twice\n'))
  await sees(page, () => fs.writeFileSync(file(), '# Intro, in place\n'))
  await sees(page, () => fs.rmSync(file()))
})

test('a folder made, or moved in, is watched with what it holds; one removed is forgotten', async () => {
  await sees('docs/guides', () => fs.mkdirSync(path.join(root, 'docs/guides')))
  await sees('docs/guides/a.mdx', () => fs.writeFileSync(path.join(root, 'docs/guides/a.mdx'), '# A\n'))
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-watch-outside-'))
  fs.mkdirSync(path.join(outside, 'deep'))
  await sees('docs/moved', () => fs.renameSync(outside, path.join(root, 'docs/moved')))
  await sees('docs/moved/deep/b.mdx', () => fs.writeFileSync(path.join(root, 'docs/moved/deep/b.mdx'), '# B\n'))
  await sees('docs/moved', () => fs.rmSync(path.join(root, 'docs/moved'), { recursive: true }))
  await sees('docs/leads/intro.mdx', () => fs.writeFileSync(file(), '# Still watched\n'))
})

test('a folder removed and made again at once, or replaced by one moved in, is watched again', async () => {
  const folder = path.join(root, 'docs/leads')
  await sees('docs/leads', () => {
    fs.rmSync(folder, { recursive: true })
    fs.mkdirSync(folder)
    fs.writeFileSync(file(), '# Made again\n')
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  await sees(page, () => fs.writeFileSync(file(), '# Edited\n'))
  await sees('docs/leads/new.mdx', () => fs.writeFileSync(path.join(folder, 'new.mdx'), '# New\n'))
  const copy = fs.mkdtempSync(path.join(root, 'copy-'))
  fs.writeFileSync(path.join(copy, 'intro.mdx'), '# Copy\n')
  await sees('docs/leads', () => {
    fs.rmSync(folder, { recursive: true })
    fs.renameSync(copy, folder)
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  await sees(page, () => fs.writeFileSync(file(), '# Edited in the copy\n'))
})
