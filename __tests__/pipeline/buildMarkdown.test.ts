/** @jest-environment node */
import path from 'node:path'
import { llmsTxt, markdownFiles, splitFrontMatter } from '../../pipeline/steps/buildMarkdown'

test('front matter is removed; its title and description are read', () => {
  expect(splitFrontMatter('---\ntitle: "Create a quote"\ndescription: How to ask.\n---\n\n# Create a quote\n\nBody.\n')).toEqual({
    fields: { title: 'Create a quote', description: 'How to ask.' },
    body: '# Create a quote\n\nBody.\n',
  })
  expect(splitFrontMatter('# No front matter\n').body).toBe('# No front matter\n')
})

test("llms.txt lists a section's pages with titles, descriptions and .md links", () => {
  expect(
    llmsTxt({ title: 'Leads API', description: 'Quotes.' }, [
      { route: '/docs/leads/intro', title: 'Leads API introduction', description: 'What it does.', body: '' },
      { route: '/docs/leads/environments', title: 'Environments', description: null, body: '' },
    ])
  ).toBe('# Leads API\n\n> Quotes.\n\n## Pages\n\n- [Leads API introduction](/docs/leads/intro.md): What it does.\n- [Environments](/docs/leads/environments.md)\n')
})

test("the real content: every section page as Markdown, and each section's llms files name only that section's pages", () => {
  const files = markdownFiles(path.resolve(__dirname, '../..'))
  expect(files.get('/docs/leads/endpoints/create-quote.md')).toMatch(/^# /)
  expect(files.get('/docs/leads/endpoints.md')).toBeDefined()
  expect([...files.keys()].every((key) => /^\/docs\/(leads|internal|support-twilio)\//.test(key))).toBe(true)
  expect(files.has('/llms.txt')).toBe(false)
  for (const [section, others] of [['leads', ['internal', 'support-twilio']], ['support-twilio', ['leads', 'internal']]] as const) {
    for (const name of ['llms.txt', 'llms-full.txt']) {
      const text = files.get(`/docs/${section}/${name}`) as string
      expect(text).toContain(`/docs/${section}/`)
      for (const other of others) expect(text).not.toContain(`/docs/${other}`)
    }
  }
  expect(files.get('/docs/leads/llms-full.txt')).not.toMatch(/^title:/m)
})
