/** @jest-environment node */
import childProcess, { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { readLastUpdated } from '../../pipeline/lastUpdated'
import { tempSite } from '../fixtures/tempSite'

/** A repository with two commits at fixed times, and a file git does not track. */
function repository(): string {
  const root = tempSite('last-updated-')
  const git = (args: string[], date?: string) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) } })
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  git(['init', '-q'])
  write('content/docs/leads/intro.mdx', 'one')
  write('content/docs/leads/env.mdx', 'one')
  git(['add', '.'])
  git(['commit', '-qm', 'first'], '2025-01-02T03:04:05Z')
  write('content/docs/leads/intro.mdx', 'two')
  git(['commit', '-qam', 'second'], '2025-03-04T05:06:07Z')
  write('content/docs/leads/draft.mdx', 'not yet in git')
  return root
}

test("each tracked file's date is its last commit; an untracked file has none", async () => {
  const dates = await readLastUpdated(repository())
  expect(dates['content/docs/leads/intro.mdx']).toBe(Date.parse('2025-03-04T05:06:07Z'))
  expect(dates['content/docs/leads/env.mdx']).toBe(Date.parse('2025-01-02T03:04:05Z'))
  expect(dates['content/docs/leads/draft.mdx']).toBeUndefined()
})

test('a shallow clone, or no repository at all, gives no dates rather than wrong ones', async () => {
  const root = repository()
  const shallow = tempSite('last-updated-shallow-')
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${root}`, shallow], { stdio: 'pipe' })
  expect(await readLastUpdated(shallow)).toEqual({})
  expect(await readLastUpdated(tempSite('no-git-'))).toEqual({})
})

test("the dates are read from the history once per commit: a rebuild with no new commit takes them as they were, and a new commit's are read", async () => {
  const root = repository()
  const logs = jest.spyOn(childProcess, 'execFile')
  const logsRun = () => logs.mock.calls.filter(([, args]) => (args as string[]).includes('log')).length
  const first = await readLastUpdated(root)
  const again = await readLastUpdated(root)
  expect(again).toEqual(first)
  expect(logsRun()).toBe(1)
  fs.writeFileSync(path.join(root, 'content/docs/leads/env.mdx'), 'two')
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qam', 'third'], { cwd: root, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_DATE: '2025-05-06T07:08:09Z', GIT_COMMITTER_DATE: '2025-05-06T07:08:09Z' } })
  expect((await readLastUpdated(root))['content/docs/leads/env.mdx']).toBe(Date.parse('2025-05-06T07:08:09Z'))
  expect(logsRun()).toBe(2)
  logs.mockRestore()
})
