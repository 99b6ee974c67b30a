/** @jest-environment node */
// Shiki is ESM only, which this Jest setup does not load, so the highlighter runs under tsx.
import { execFileSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')

/**
 * `busy`: the clock moves 100 ms further at each reading while the code is highlighted, as each
 * step seems to take longer on a machine busy with other work.
 */
function highlight(lang: string, code: string, { busy = false } = {}): { loadedAtStart: string[]; loaded: string[]; html: string } {
  const script = `(async () => {
    const { onDemandHighlighter } = require('./pipeline/onDemandHighlighter')
    const highlighter = await onDemandHighlighter({ themes: ['github-light', 'github-dark'] })
    const loadedAtStart = highlighter.getLoadedLanguages()
    await highlighter.loadLanguage(${JSON.stringify(lang)})
    const now = Date.now
    let readings = 0
    if (${busy}) Date.now = () => now() + 100 * ++readings
    const html = highlighter.codeToHtml(${JSON.stringify(code)}, { lang: ${JSON.stringify(lang)}, theme: 'github-light' })
    Date.now = now
    console.log(JSON.stringify({ loadedAtStart, loaded: highlighter.getLoadedLanguages(), html }))
  })()`
  const output = execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '-e', script], { cwd: root, encoding: 'utf8' })
  return JSON.parse(output)
}

describe('onDemandHighlighter', () => {
  it('starts with plain text only, then highlights a language once it is loaded', () => {
    const { loadedAtStart, html } = highlight('sql', 'SELECT id FROM cases')
    expect(loadedAtStart.length).toBeLessThan(10)
    expect(html).toContain('<span style="color:#D73A49">SELECT</span>')
  })

  it('loads the grammars a Markdown fence embeds, so nested code is highlighted too', () => {
    const { loaded, html } = highlight('md', '```json\n{ "quoteId": 42 }\n```')
    expect(loaded).toContain('json')
    expect(html).toContain('<span style="color:#005CC5">42</span>')
  })

  it('colours a line to its end however long that takes, as it does on an idle machine', () => {
    const line = 'npx cdk deploy DmsLegacyMigrationStack --context env=prod'
    const { html } = highlight('bash', line, { busy: true })
    expect(html).toContain('<span style="color:#032F62"> cdk</span>')
    expect(html).toBe(highlight('bash', line).html)
  })
})
