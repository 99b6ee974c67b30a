/**
 * Facts of text shown as one line, wherever it is written: a page's front matter and first heading,
 * a `_meta` file, a section of access.config.ts, a list's entry. Plain ESM (lib/plainText.d.mts
 * types it), so the compile worker, which runs untranspiled, checks a title by the same rules.
 */

/** A character as Unicode names it: `U+202E`, `U+000A`. */
export const codePointName = (character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The most characters a title and a description hold: more is a slip (a block pasted into the
 * field), and would fill the sidebar, every search result and each line of the llms files that names it.
 */
export const TEXT_MOST = Object.freeze({ title: 300, description: 2_000 })

/** Characters as a reader counts them (an emoji is one), not UTF-16 units. */
export const characterCount = (text) => [...text].length

/**
 * The bidirectional controls (U+202A to U+202E, U+2066 to U+2069): each reorders the text after it,
 * so a title holding one shows other than its characters read (in the sidebar, the tab, search).
 */
export const DIRECTION_CONTROL = /[\u202a-\u202e\u2066-\u2069]/
/** The same controls as a character reference (`&#x202E;`, `&#8238;`) or a JS escape (`\u202e`, `\u{2066}`). */
export const DIRECTION_REFERENCE = /&#(?:x0*(?:202[a-e]|206[6-9])|0*(?:820[2-6]|823[0-3]));|\\u(?:202[a-e]|206[6-9]|\{0*(?:202[a-e]|206[6-9])\})/i

/** A line break or another control character (C0, C1, the Unicode line and paragraph separators). */
const LINE_CONTROL = /[\p{Cc}\u2028\u2029]/u

/**
 * Why a title or description cannot be shown as the one line of text the sidebar, the tab, search
 * and the AI tools' lists show it as, or null: a direction control, a line break or another control
 * character (a YAML or JS escape, a character reference or a heading over two lines writes one the
 * line does not show), or too many characters. `field` names its limit (tooLong). Trailing white
 * space (a folded YAML block's) is no problem.
 */
export function textFieldProblem(field, value) {
  if (typeof value !== 'string') return null
  const control = directionControlIn(value)
  if (control) return `holds ${control}, ${DIRECTION_CONTROL_FIX}`
  const line = LINE_CONTROL.exec(value.trimEnd())
  if (line) return `holds ${codePointName(line[0])}, a line break or a control character, which the sidebar, the tab, search and the AI tools' lists would show as another line or not at all: write it on one line`
  return tooLong(field, value)
}

/** The first direction control in `value`, as its code point (`U+202E`); null when a string holds none, or it is no string. */
export function directionControlIn(value) {
  const found = typeof value === 'string' ? DIRECTION_CONTROL.exec(value) : null
  return found ? codePointName(found[0]) : null
}

/** What a title with a direction control is told, after the control. */
export const DIRECTION_CONTROL_FIX =
  'a control that reorders the text after it, so it would show other than its characters read (in the sidebar, the tab and search); remove it (right-to-left words need none: browsers order them)'

/** Why a text field is too long to show (`is 20,000 characters long; …`), or null. */
export function tooLong(field, value) {
  if (typeof value !== 'string') return null
  // A title is `title`, `sidebarTitle` or a `_meta` entry's.
  const most = field === 'description' ? TEXT_MOST.description : TEXT_MOST.title
  const count = characterCount(value)
  return count > most ? `is ${count.toLocaleString('en-US')} characters long; a ${field === 'description' ? 'description' : 'title'} holds at most ${most.toLocaleString('en-US')}: shorten it` : null
}
