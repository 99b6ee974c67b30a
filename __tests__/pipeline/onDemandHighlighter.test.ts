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

/** Colours with a store of kept blocks: what a block kept under its key gives, and what the store holds after. */
function highlightKept(lang: string, codes: string[], { mark = false, transformers = false } = {}): { html: string[]; kept: number } {
  const script = `(async () => {
    const { onDemandHighlighter } = require('./pipeline/onDemandHighlighter')
    const blocks = new Map()
    const kept = { salt: 'compiler', get: (key) => blocks.get(key), set: (key, html) => blocks.set(key, html) }
    const highlighter = await onDemandHighlighter({ themes: ['github-light', 'github-dark'] }, kept)
    await highlighter.loadLanguage(${JSON.stringify(lang)})
    const options = { lang: ${JSON.stringify(lang)}, theme: 'github-light', ...(${transformers} && { transformers: [{ name: 'none' }] }) }
    const html = []
    for (const code of ${JSON.stringify(codes)}) {
      html.push(highlighter.codeToHtml(code, options))
      if (${mark}) for (const [key, value] of blocks) blocks.set(key, 'KEPT ' + value)
    }
    console.log(JSON.stringify({ html, kept: blocks.size }))
  })()`
  return JSON.parse(execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '-e', script], { cwd: root, encoding: 'utf8' }))
}

describe('onDemandHighlighter', () => {
  it('takes a block it coloured before from the kept blocks, by its code and options, and colours a different block', () => {
    const { html, kept } = highlightKept('sql', ['SELECT id FROM cases', 'SELECT id FROM cases', 'SELECT id FROM quotes'], { mark: true })
    expect(html[0]).toContain('<span style="color:#D73A49">SELECT</span>')
    expect(html[1]).toBe(`KEPT ${html[0]}`)
    expect(html[2]).toContain('quotes')
    expect(html[2]).not.toContain('KEPT')
    expect(kept).toBe(2)
  })

  it('colours a block every time when its options hold transformers, which no key can name', () => {
    const { html, kept } = highlightKept('sql', ['SELECT 1', 'SELECT 1'], { mark: true, transformers: true })
    expect(html[1]).toBe(html[0])
    expect(kept).toBe(0)
  })

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

describe('grammars that inject into others', () => {
  const run = (script: string) => JSON.parse(execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '-e', `(async () => { ${script} })()`], { cwd: root, encoding: 'utf8' }))

  it("colour a block the same whatever the worker coloured before, and as Nextra's highlighter with every grammar does (a review's TypeScript css`…` changed colour after a lit block)", () => {
    // Each scenario in a process of its own: one that imported Shiki's modules before loads faster, and hides a race.
    const colourIn = (before: Array<[string, string]>, everyGrammar = false) => run(`
      const shiki = await import('shiki')
      const { onDemandHighlighter } = require('./pipeline/onDemandHighlighter')
      const code = 'const style = css\`color: red; margin: 4px;\`\\nconst view = html\`<p>\${name}</p>\`'
      const colour = async (highlighter, before) => {
        for (const [lang, text] of before) {
          await highlighter.loadLanguage(lang)
          highlighter.codeToHtml(text, { lang, theme: 'github-light' })
        }
        await highlighter.loadLanguage('ts')
        return highlighter.codeToHtml(code, { lang: 'ts', theme: 'github-light' })
      }
      const themes = { themes: ['github-light', 'github-dark'] }
      const highlighter = ${everyGrammar} ? await shiki.getHighlighter({ ...themes, langs: Object.keys(shiki.bundledLanguages) }) : await onDemandHighlighter(themes)
      console.log(JSON.stringify(await colour(highlighter, ${JSON.stringify(before)})))
    `) as string
    const everyGrammar = colourIn([], true)
    expect(everyGrammar).toContain('margin')
    expect(colourIn([])).toBe(everyGrammar)
    expect(colourIn([['lit', 'const v = html`<b>x</b>`']])).toBe(everyGrammar)
    expect(colourIn([['md', '# Title']])).toBe(everyGrammar)
    expect(colourIn([['vue', '<template><p v-if="a">{{ b }}</p></template>']])).toBe(everyGrammar)
  })

  it('are each carried by one of INJECTION_CARRIERS, so the highlighter loads them with the grammar they inject into', () => {
    const { uncarried } = run(`
      const shiki = await import('shiki')
      const { INJECTION_CARRIERS } = require('./pipeline/onDemandHighlighter')
      const carriedBy = {}
      for (const [name, load] of Object.entries(shiki.bundledLanguages)) for (const grammar of (await load()).default) if (grammar.injectTo) (carriedBy[grammar.name] ??= new Set()).add(name)
      console.log(JSON.stringify({ uncarried: Object.keys(carriedBy).filter((grammar) => !INJECTION_CARRIERS.some((carrier) => carriedBy[grammar].has(carrier))) }))
    `)
    expect(uncarried).toEqual([])
  })
})
