/**
 * The Shiki highlighter for code blocks, loading each language when a page first uses it.
 *
 * Nextra 3 creates its highlighter with every bundled language (about 230 grammars), so that a
 * fenced ```mdx block also highlights the languages nested in it. Resolving those grammars cost
 * every build process more CPU than any other single step of compiling the site
 * (docs/benchmarks.md). rehype-pretty-code already loads a page's languages before highlighting it; this adds the
 * grammars that a language embeds lazily (Markdown and MDX embed dozens), so nested fences are
 * highlighted exactly as before.
 *
 * It also tokenizes every line to its end, however long that takes. Shiki by default gives up on a
 * line after 500 ms of wall time and colours the rest of it as the token where it stopped (one
 * theme's pass only, so the other theme's token boundaries stay and only the colours change). A
 * grammar's first line in a worker also compiles the grammar's expressions, which on a busy
 * machine can take most of that limit, so a build under load could colour a page differently from
 * another build of the same sources. Without the limit, the same code is always coloured the same.
 *
 * Some grammars inject themselves into others' (Shiki's `injectTo`: css`…` in TypeScript, Vue's
 * directives in Markdown), and come only with the language that carries them (`ts-tags`, `vue`,
 * `angular-ts`). A grammar is loaded with every injection into it, as Nextra's highlighter with
 * all grammars has them: else a worker that had coloured a `lit` block coloured TypeScript
 * otherwise than one that had not, and a build's pages depended on the order they were compiled in.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

type ShikiModule = typeof import('shiki')
type Highlighter = Awaited<ReturnType<ShikiModule['getHighlighter']>>
type HighlighterOptions = Parameters<ShikiModule['getHighlighter']>[0]

/** The highlighter's ways to colour code; each tokenizes with the options it is given. */
const HIGHLIGHTS = ['codeToTokensBase', 'codeToTokensWithThemes', 'codeToTokens', 'codeToHast', 'codeToHtml'] as const

/**
 * Shiki's own engine, Oniguruma, its WebAssembly read from the file Shiki publishes
 * (`shiki/onig.wasm`). Left to itself, Shiki loads the same bytes inlined as base64 in a module,
 * which every compile worker decoded in JavaScript before compiling them (docs/benchmarks.md).
 */
async function onigurumaFromFile() {
  const { createOnigurumaEngine } = await import('shiki/engine/oniguruma')
  // As an ES module (the compile workers' transpiled copy) or as CommonJS (tsx, in the tests).
  const wasm = typeof require === 'function' ? require.resolve('shiki/onig.wasm') : fileURLToPath(import.meta.resolve('shiki/onig.wasm'))
  return createOnigurumaEngine(readFile(wasm))
}

/**
 * Code blocks coloured before, by a key of everything their colouring follows from: a page's
 * compile offers its last compile's blocks (pipeline/compile/compileWorker.mjs), so an edit of its
 * text colours no block again, and Shiki compiles none of a grammar's expressions for it.
 */
export interface KeptBlocks {
  /** What else the colours follow from: the compiler's fingerprint (Shiki's version and its grammars among it). */
  salt: string
  get(key: string): string | undefined
  set(key: string, html: string): void
}

/** The bundled languages whose modules carry the grammars that inject into others (__tests__/pipeline/onDemandHighlighter.test.ts finds them all). */
export const INJECTION_CARRIERS = ['ts-tags', 'vue', 'angular-ts'] as const

type Grammar = import('shiki').LanguageRegistration

export async function onDemandHighlighter(options: HighlighterOptions, kept?: KeptBlocks): Promise<Highlighter> {
  // shiki is ESM only; next.config is loaded as CommonJS.
  const shiki: ShikiModule = await import('shiki')
  const highlighter = await shiki.getHighlighter({ ...options, engine: await onigurumaFromFile(), langs: ['plaintext'] })
  const loadLanguage = highlighter.loadLanguage.bind(highlighter)
  const grammarsOf = async (name: string) => {
    const bundled = shiki.bundledLanguages[name as keyof typeof shiki.bundledLanguages]
    return bundled ? (await bundled()).default : null
  }

  /**
   * By the scope they inject into: each injecting grammar's carrier's grammars but the carrier's
   * own (which the injection embeds). Read once, when first needed: one promise, so a language
   * loaded meanwhile (the lazy embeddings are loaded together) waits for the whole map.
   */
  let injections: Promise<Map<string, Grammar[]>> | undefined
  const readInjections = async () => {
    const byScope = new Map<string, Grammar[]>()
    for (const carrier of INJECTION_CARRIERS) {
      const grammars = (await grammarsOf(carrier)) ?? []
      const group = grammars.filter((grammar) => grammar.name !== carrier)
      for (const target of new Set(grammars.flatMap((grammar) => grammar.injectTo ?? []))) byScope.set(target, [...(byScope.get(target) ?? []), ...group])
    }
    return byScope
  }
  const injectionsInto = async (scope: string) => (await (injections ??= readInjections())).get(scope) ?? []

  /** `name`, the languages it embeds lazily, and the grammars that inject into any of theirs, none of `seen`. */
  async function withEmbedded(name: string, seen: Set<string>): Promise<Array<string | Grammar>> {
    if (seen.has(name)) return []
    seen.add(name)
    const grammars = await grammarsOf(name)
    if (!grammars) return [name]
    const lazy = grammars.flatMap((grammar) => grammar.embeddedLangsLazy ?? [])
    const nested = await Promise.all(lazy.map((embedded) => withEmbedded(embedded, seen)))
    const injected: Array<string | Grammar> = []
    const pending = [...grammars]
    for (let grammar = pending.pop(); grammar; grammar = pending.pop()) {
      for (const injection of await injectionsInto(grammar.scopeName)) {
        if (seen.has(injection.name)) continue
        // A language of its own (the TypeScript an injection embeds) loads as any language does, with its own embeddings.
        if (injection.name in shiki.bundledLanguages) {
          injected.push(...(await withEmbedded(injection.name, seen)))
          continue
        }
        seen.add(injection.name)
        injected.push(injection)
        pending.push(injection)
      }
    }
    // Injections first: a grammar's first use then finds every injection into it registered.
    return [...injected, name, ...nested.flat()]
  }

  highlighter.loadLanguage = async (...langs) => {
    const seen = new Set<string>(highlighter.getLoadedLanguages())
    const expanded: typeof langs = []
    for (const lang of langs) {
      if (typeof lang !== 'string') expanded.push(lang)
      else expanded.push(...((await withEmbedded(lang, seen)) as typeof langs))
    }
    if (expanded.length) await loadLanguage(...expanded)
  }

  for (const method of HIGHLIGHTS) {
    const highlight = highlighter[method].bind(highlighter) as (code: string, options: object) => unknown
    // 0: no time limit. The options reach the transformers too (twoslash highlights its popups with them).
    Object.assign(highlighter, { [method]: (code: string, options: object) => highlight(code, { ...options, tokenizeTimeLimit: 0 }) })
  }
  if (kept) {
    // rehype-pretty-code colours each block with codeToHtml. Options that hold code (transformers)
    // cannot be keyed, so such a block is coloured every time.
    const toHtml = highlighter.codeToHtml.bind(highlighter)
    highlighter.codeToHtml = (code, options) => {
      if (options.transformers?.length) return toHtml(code, options)
      const key = createHash('sha256').update(JSON.stringify([kept.salt, code, options])).digest('hex')
      const html = kept.get(key) ?? toHtml(code, options)
      kept.set(key, html)
      return html
    }
  }
  return highlighter
}
