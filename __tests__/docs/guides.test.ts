/** @jest-environment node */
import fs from 'node:fs'
import path from 'node:path'
import access from '../../access.config'
import { checkGuides, formatProblems, githubSlug, guideFiles, type GuideFacts } from '../../scripts/docs/checkGuides'
import { envNamesReadByCode } from '../../scripts/docs/envNames'
import { tempSite } from '../fixtures/tempSite'

const ROOT = path.resolve(__dirname, '../..')
const packageScripts = (root: string) => new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {}))
const facts: GuideFacts = { scripts: packageScripts(ROOT), envNames: envNamesReadByCode(ROOT, access) }

test('the README and every guide name only links, anchors, scripts and environment variables that exist', () => {
  expect(guideFiles(ROOT)).toEqual(expect.arrayContaining(['README.md', 'docs/writing.md', 'docs/access.md', 'docs/deploy.md', 'docs/security.md', 'docs/architecture.md', 'docs/benchmarks.md']))
  expect(formatProblems(checkGuides(ROOT, facts))).toBe('')
})

test('the README stays a front door: about 150 lines, with the two commands on its first screen', () => {
  const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n')
  expect(lines.length).toBeLessThanOrEqual(160)
  const firstScreen = lines.slice(0, 40).join('\n')
  expect(firstScreen).toMatch(/^npm start\b/m)
  expect(firstScreen).toMatch(/^npm test\b/m)
})

test('on the real guides, a renamed script or a variable the code no longer reads fails, naming each file and line', () => {
  const scripts = new Set([...facts.scripts].filter((script) => script !== 'deploy:access'))
  const envNames = new Set([...facts.envNames].filter((name) => name !== 'DOCS_PROTECT'))
  const problems = checkGuides(ROOT, { scripts, envNames })
  expect(problems.length).toBeGreaterThan(0)
  expect(problems.map((problem) => problem.file)).toEqual(expect.arrayContaining(['README.md', 'docs/access.md']))
  for (const { file, line, problem } of problems) {
    expect(problem).toMatch(/^(npm run deploy:access: package\.json has no script "deploy:access"|DOCS_PROTECT: the code reads no such environment variable)$/)
    expect(fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')[line - 1]).toMatch(/deploy:access|DOCS_PROTECT/)
  }
})

describe('the checker, on a small repository', () => {
  const repo = (files: Record<string, string>) => tempSite('guides-', files)

  const small: GuideFacts = { scripts: new Set(['start', 'test', 'build', 'deploy:access']), envNames: new Set(['DOCS_PROTECT', 'DOCS_LEADS_USERS', 'WAF', 'PORT']) }

  test('a broken link, a missing anchor, a renamed script and an unknown variable each fail with file:line', () => {
    const root = repo({
      'README.md': ['# Docs', '', 'See [writing](docs/writing.md) and [access](docs/access.md#lists).', '', '```bash', 'npm start', 'npm run deploy-access', 'WAF=on DOCS_PROTEKT=false npm run build', '```'].join('\n'),
      'docs/writing.md': ['# Writing', '', '## Lists and groups', '', 'Back to the [README](../README.md#docs); see [below](#lists-and-groups) and [nothing](#nowhere).', 'Set `DOCS_LEADS_USER` or `DOCS_LEADS_USERS`.'].join('\n'),
    })
    expect(formatProblems(checkGuides(root, small))).toBe(
      [
        'README.md:3: docs/access.md#lists: no file docs/access.md',
        'README.md:7: npm run deploy-access: package.json has no script "deploy-access"',
        'README.md:8: DOCS_PROTEKT: the code reads no such environment variable',
        'docs/writing.md:5: #nowhere: docs/writing.md has no heading with the anchor #nowhere',
        'docs/writing.md:6: DOCS_LEADS_USER: the code reads no such environment variable',
      ].join('\n')
    )
  })

  test('anchors follow GitHub: punctuation dropped, spaces to hyphens, repeated headings numbered', () => {
    const root = repo({
      'README.md': ['[a](docs/g.md#deploy-a-list-change-deployaccess) [b](docs/g.md#federated-sign-in-sso) [c](docs/g.md#notes-1) [d](docs/g.md#federated-sign-in)'].join('\n'),
      'docs/g.md': ['## Deploy a list change: `deploy:access`', '## Federated sign-in (SSO)', '## Notes', '## Notes', '```', '## not a heading', '```'].join('\n'),
    })
    expect(formatProblems(checkGuides(root, small))).toBe('README.md:1: docs/g.md#federated-sign-in: docs/g.md has no heading with the anchor #federated-sign-in')
    expect(['What the build refuses, and why', 'Installs use the `lock`', 'A [link](x.md) & more', 'snake_case heading'].map(githubSlug)).toEqual([
      'what-the-build-refuses-and-why',
      'installs-use-the-lock',
      'a-link--more',
      'snake_case-heading',
    ])
  })

  test('external links, code spans and placeholders are read as what they are', () => {
    const root = repo({
      'README.md': [
        '[site](https://example.com) [mail](mailto:a@example.com) `[not](a-link.md)`',
        'Override with `DOCS_<LIST_NAME>`; `NOT_READ_<X>` is unknown; `TLSv1.2_2021` and `GET` are not variables.',
        '`npm run build` and `npm test` exist; `npm run bench` does not.',
      ].join('\n'),
    })
    expect(formatProblems(checkGuides(root, small))).toBe(
      ['README.md:2: NOT_READ_…: the code reads no environment variable that starts with NOT_READ_', 'README.md:3: npm run bench: package.json has no script "bench"'].join('\n')
    )
  })
})

test('the code-read variables include direct reads, constants read as names, CDK settings and list overrides', () => {
  expect([...facts.envNames]).toEqual(expect.arrayContaining(['DOCS_AUTH_MODE', 'DOCS_ACCESS_LOG', 'DOCS_PROTECT', 'DOMAIN_NAME', 'WAF', 'IDP_TYPE', 'DOCS_TWILIO_SUPPORT_USERS']))
  expect(facts.envNames.has('DOCS_SALES_USERS')).toBe(false)
})
