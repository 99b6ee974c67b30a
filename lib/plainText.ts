/**
 * Facts of text shown as one line, wherever it is written: a page's front matter, a `_meta` file,
 * a section of access.config.ts, a list's entry.
 */

/** A character as Unicode names it: `U+202E`, `U+000A`. */
export const codePointName = (character: string) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The most characters a title and a description hold: more is a slip (a block pasted into the
 * field), and would fill the sidebar, every search result and each line of the llms files that names it.
 */
export const TEXT_MOST = { title: 300, description: 2_000 } as const

/** Characters as a reader counts them (an emoji is one), not UTF-16 units. */
export const characterCount = (text: string) => [...text].length
