/**
 * The Shiki highlighter for code blocks, loading each language when a page first uses it.
 *
 * Nextra 3 creates its highlighter with every bundled language (about 230 grammars), so that a
 * fenced ```mdx block also highlights the languages nested in it. Resolving those grammars took
 * about 9 s of CPU in every build process, more than any other single step of compiling the
 * site. rehype-pretty-code already loads a page's languages before highlighting it; this adds the
 * grammars that a language embeds lazily (Markdown and MDX embed dozens), so nested fences are
 * highlighted exactly as before.
 */
type ShikiModule = typeof import('shiki')
type Highlighter = Awaited<ReturnType<ShikiModule['getHighlighter']>>
type HighlighterOptions = Parameters<ShikiModule['getHighlighter']>[0]

export async function onDemandHighlighter(options: HighlighterOptions): Promise<Highlighter> {
  // shiki is ESM only; next.config is loaded as CommonJS.
  const shiki: ShikiModule = await import('shiki')
  const highlighter = await shiki.getHighlighter({ ...options, langs: ['plaintext'] })
  const loadLanguage = highlighter.loadLanguage.bind(highlighter)

  async function withLazyEmbedded(name: string, seen: Set<string>): Promise<string[]> {
    if (seen.has(name)) return []
    seen.add(name)
    const bundled = shiki.bundledLanguages[name as keyof typeof shiki.bundledLanguages]
    if (!bundled) return [name]
    const grammars = (await bundled()).default as Array<{ embeddedLangsLazy?: string[] }>
    const lazy = grammars.flatMap((grammar) => grammar.embeddedLangsLazy ?? [])
    const nested = await Promise.all(lazy.map((embedded) => withLazyEmbedded(embedded, seen)))
    return [name, ...nested.flat()]
  }

  highlighter.loadLanguage = async (...langs) => {
    const seen = new Set<string>(highlighter.getLoadedLanguages())
    const expanded: typeof langs = []
    for (const lang of langs) {
      if (typeof lang !== 'string') expanded.push(lang)
      else expanded.push(...((await withLazyEmbedded(lang, seen)) as typeof langs))
    }
    if (expanded.length) await loadLanguage(...expanded)
  }
  return highlighter
}
