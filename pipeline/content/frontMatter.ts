/**
 * A page's front matter: YAML between a `---` line at the top and the next `---` line, parsed once
 * by the content source with the YAML parser Nextra's compile uses (`yaml`, Nextra's own copy). The
 * check, the page map and the compile take that one result.
 *
 * YAML only: gray-matter, which Nextra's page map used, runs a block opened with `---js` (or
 * `---javascript`, `---coffee`) as code, so anyone who may commit a page could run code on the
 * build machine. An opening line with anything after `---` is refused, naming the file.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { ContentError, locate } from './contentError'
import { PageSettingsError, pageSettingsProblem } from './pageSettings'
import { DIRECTION_REFERENCE, DIRECTION_CONTROL, directionControlIn, textFieldProblem } from '../../lib/plainText.mjs'

interface YamlDocument {
  errors: YamlParseError[]
  warnings: YamlParseError[]
  toJS: () => unknown
}

interface Yaml {
  parseDocument: (source: string) => YamlDocument
}
let loaded: Yaml | undefined

/**
 * The parser Nextra's compile loads (its own dependency, whatever else the project holds), loaded
 * on the first page with front matter to read: a rebuild takes its unchanged pages from the scan
 * record and may read none. `yaml`'s Node build, by its `main` file: a test runner that resolves
 * as a browser would get its ES module build.
 */
function yaml(): Yaml {
  if (loaded) return loaded
  const fromNextra = createRequire(require.resolve('nextra/package.json'))
  const yamlPackage = fromNextra.resolve('yaml/package.json')
  return (loaded = fromNextra(path.join(path.dirname(yamlPackage), (JSON.parse(fs.readFileSync(yamlPackage, 'utf8')) as { main: string }).main)) as Yaml)
}

const HOW = 'Front matter is `key: value` lines between two `---` lines; quote a value that holds ": " or starts with [, {, \' or " (title: "Leads: the API").'

/** A page whose front matter is not YAML, or not `key: value` lines. */
export class BadFrontMatterError extends ContentError {
  constructor(file: string, problem: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}the front matter is not valid: ${problem}. ${HOW}`)
  }
}

/** A page's text that other readers of it (the compiler, the AI tools' files) would read otherwise than the site's checks. */
export class PageTextError extends ContentError {
  constructor(file: string, problem: string, line: number, column: number) {
    super(file, `${locate(file, line, column)}the page ${problem}.`)
  }
}

/** A direction control in a page's text or code: what shows is not what its characters read (Trojan Source). */
export class DirectionControlError extends ContentError {
  constructor(file: string, control: string, line: number, column: number) {
    super(file, `${locate(file, line, column)}the page holds ${control}, a control that reorders the text after it, so the page would show other than its characters read (in a code block, what a reader copies is not what they see); remove it (right-to-left words need none: browsers order them).`)
  }
}

/** A front matter opened with a language (`---js`): the build reads YAML only, and never runs a page. */
export class FrontMatterLanguageError extends ContentError {
  constructor(file: string, readonly language: string) {
    super(file, `${locate(file, 1, 4)}the front matter is opened with \`---${language}\`: front matter is YAML only, and a page is data the build never runs. Open it with a line of just \`---\`.`)
  }
}

export interface FrontMatter {
  data: Record<string, unknown>
  /** The page without its front matter and the blank lines after it. */
  body: string
}

/**
 * The front matter block of `source` as the compiler finds it (remark-frontmatter: a first line of
 * `---`, closed by the next line of `---`): its YAML and the body after it, or null when the page
 * has none. Line n of the YAML (from 0) is line n + 2 of the file.
 */
function split(file: string, source: string): { yaml: string; body: string } | null {
  if (!source.startsWith('---') || source.charAt(3) === '-') return null
  const lines = source.split('\n')
  const language = lines[0].slice(3).trim()
  if (language !== '') throw new FrontMatterLanguageError(file, language)
  const close = lines.findIndex((line, index) => index > 0 && /^---[ \t]*\r?$/.test(line))
  if (close === -1) throw new BadFrontMatterError(file, 'it has no closing `---` line, so the whole page would be read as front matter', 1)
  // A file saved with CRLF line ends: YAML reads each line without its CR, as the compiler does.
  return { yaml: lines.slice(1, close).map((line) => line.replace(/\r$/, '')).join('\n'), body: lines.slice(close + 1).join('\n') }
}

interface YamlParseError {
  message: string
  linePos?: { line: number; col: number }[]
}

/** The parser's own words, without its excerpt of the file or its position (given separately). */
const firstLine = (message: string) => message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '')

const CLOSERS: Record<string, string> = { '[': ']', '{': '}', '"': '"', "'": "'" }
const OPENED: Record<string, string> = { '[': 'a list', '{': 'a mapping', '"': 'a quoted text', "'": 'a quoted text' }

/**
 * A parser notices an unclosed bracket or quote only where the next key starts. The line that
 * opened it, when a top-level value starts with one and the next line is a key of its own:
 * { line, key, opener }, counting lines of the YAML from 1.
 */
function unclosedValue(text: string): { line: number; key: string; opener: string } | null {
  const lines = text.split(/\r?\n/)
  for (const [index, line] of lines.entries()) {
    const field = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$/.exec(line)
    if (!field) continue
    const [, key, value] = field
    const closer = CLOSERS[value.charAt(0)]
    if (!closer || (value.length > 1 && value.endsWith(closer))) continue
    const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== '')
    if (next === undefined || /^[A-Za-z_][\w-]*:/.test(next)) return { line: index + 1, key, opener: value.charAt(0) }
  }
  return null
}

/**
 * A page's front matter and body, parsed once; throws a BadFrontMatterError or
 * FrontMatterLanguageError naming `file` (relative to the project) and the line.
 */
export function parseFrontMatter(file: string, source: string): FrontMatter {
  const block = split(file, source)
  if (block === null) {
    checkBodyText(file, source, 1)
    return { data: {}, body: source.replace(/^\s*\n/, '') }
  }
  let data: unknown
  try {
    // As `parse` does, but its warnings (a tag YAML does not know, `!!js/function`) are the writer's to fix, not a line in the build's log.
    const document = yaml().parseDocument(block.yaml)
    if (document.errors.length > 0) throw document.errors[0]
    const warning = document.warnings[0]
    if (warning) {
      const position = warning.linePos?.[0]
      throw new BadFrontMatterError(file, `${firstLine(warning.message)} (a tag makes something other than text, numbers, lists and mappings)`, position ? position.line + 1 : undefined, position?.col)
    }
    data = document.toJS()
  } catch (error) {
    if (error instanceof BadFrontMatterError) throw error
    const unclosed = unclosedValue(block.yaml)
    if (unclosed) {
      const { key, opener } = unclosed
      throw new BadFrontMatterError(file, `the value of \`${key}\` starts with ${opener}, so YAML reads ${OPENED[opener]}, and it is not closed on its line`, unclosed.line + 1)
    }
    const position = (error as YamlParseError).linePos?.[0]
    throw new BadFrontMatterError(file, firstLine((error as YamlParseError).message ?? String(error)), position ? position.line + 1 : undefined, position?.col)
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new BadFrontMatterError(file, 'it is a list or a single value, not `key: value` lines', 2)
  }
  const fields = (data ?? {}) as Record<string, unknown>
  /** The file's line of a top-level field, or undefined. */
  const lineOf = (field: string) => {
    const at = block.yaml.split('\n').findIndex((line) => line.startsWith(`${field}:`))
    return at < 0 ? undefined : at + 2
  }
  const settings = pageSettingsProblem(fields)
  if (settings) throw new PageSettingsError(file, settings.problem, lineOf(settings.field))
  const notText = TEXT_FIELDS.find((field) => fields[field] !== undefined && fields[field] !== null && typeof fields[field] !== 'string')
  if (notText) throw new BadFrontMatterError(file, `\`${notText}\` is ${valueKind(fields[notText])}, and the page shows it as text; quote it (${notText}: "…")`, lineOf(notText))
  for (const field of TEXT_FIELDS) {
    const problem = textFieldProblem(field, fields[field])
    if (problem) throw new BadFrontMatterError(file, `\`${field}\` ${problem}`, lineOf(field))
  }
  const body = block.body.replace(/^\s*\n/, '')
  const bodyLine = source.split('\n').length - block.body.split('\n').length + 1
  checkBodyText(file, block.body, bodyLine)
  return { data: fields, body }
}

/**
 * A page's body as every reader of it reads it: no direction control anywhere, its code blocks
 * included (none is needed, and one makes text show other than it reads); no carriage return
 * alone; no line the AI tools' full text would take for the start of another page.
 */
function checkBodyText(file: string, body: string, bodyLine: number): void {
  const place = (index: number) => {
    const before = body.slice(0, index).split('\n')
    return [bodyLine + before.length - 1, before[before.length - 1].length + 1] as const
  }
  // Written as itself, as a character reference (&#x202E;) or as a JS escape in an attribute (\u202e): the compile decodes both.
  const found = DIRECTION_CONTROL.exec(body) ?? DIRECTION_REFERENCE.exec(body)
  if (found) throw new DirectionControlError(file, found[0].length === 1 ? directionControlIn(found[0])! : found[0], ...place(found.index))
  // A carriage return alone ends a line for the compiler and not for these checks, which would read other lines than it.
  const lone = /\r(?!\n)/.exec(body)
  if (lone) throw new PageTextError(file, 'holds a carriage return alone (U+000D), which ends a line for the compiler and for no other reader of the page: save the file with LF or CRLF line ends', ...place(lone.index))
  // The AI tools' full-text files start each page with `<!-- /route -->` (lib/aiTools/llmsFiles.ts fullTextEntry).
  const separator = /^[ \t]*<!--[ \t]*\/[^\n]*-->[ \t]*\r?$/m.exec(body)
  if (separator) throw new PageTextError(file, "holds a line that reads as the AI tools' start of a page (<!-- /route -->): in the audience's full text it would make what follows another page's; write it otherwise", ...place(separator.index))
}

/** What a parsed value is, in a writer's words: a list, a mapping, null, a number… */
export const valueKind = (value: unknown) =>
  Array.isArray(value) ? 'a list' : value === null ? 'null' : value instanceof Uint8Array ? 'binary data (!!binary)' : typeof value === 'object' ? 'a mapping' : `a ${typeof value}`


/** The fields the site shows as text: in the sidebar, the page's title, search, the llms files. */
const TEXT_FIELDS = ['title', 'sidebarTitle', 'description'] as const
