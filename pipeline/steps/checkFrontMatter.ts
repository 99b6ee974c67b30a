/**
 * A page's front matter must be YAML that both of Nextra's readers accept, or the build fails late:
 * its page map reads it with gray-matter (js-yaml), and its MDX compile with `yaml`, and either
 * throws a parser's error that names no file. This check reads it with the same two parsers, the
 * ones Nextra itself resolves, so it accepts exactly what the build will.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { readFrontMatter } from '../content/contentSource'
import { ContentError, locate } from './contentError'

/** The parser Nextra's compile loads (its own dependency, whatever else the project holds); its page map's is the content source's. */
const fromNextra = createRequire(require.resolve('nextra/package.json'))
/** `yaml`'s Node build, by its `main` file: a test runner that resolves as a browser would get its ES module build. */
const yamlPackage = fromNextra.resolve('yaml/package.json')
const yaml = fromNextra(path.join(path.dirname(yamlPackage), (JSON.parse(fs.readFileSync(yamlPackage, 'utf8')) as { main: string }).main)) as { parse: (source: string) => unknown }

const HOW = 'Front matter is `key: value` lines between two `---` lines; quote a value that holds ": " or starts with [, {, \' or " (title: "Leads: the API").'

/** A page whose front matter is not YAML, or not `key: value` lines. */
export class BadFrontMatterError extends ContentError {
  constructor(file: string, problem: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}the front matter is not valid: ${problem}. ${HOW}`)
    this.name = 'BadFrontMatterError'
  }
}

/**
 * What gray-matter reads as front matter: a page that starts with `---` (not `----`) opens it, and
 * it runs to the next line that starts with `---`, or to the end of the file when there is none.
 * Line n of the text returned (from 0) is line n + 1 of the file.
 */
function frontMatterOf(source: string): { text: string; closed: boolean } | null {
  if (!source.startsWith('---') || source.charAt(3) === '-') return null
  const rest = source.slice(3)
  const close = rest.indexOf('\n---')
  return close === -1 ? { text: rest, closed: false } : { text: rest.slice(0, close), closed: true }
}

interface YamlParseError {
  message: string
  linePos?: { line: number; col: number }[]
}

interface JsYamlException extends Error {
  name: 'YAMLException'
  reason?: string
  mark?: { line: number; column: number }
}

const isJsYamlException = (error: unknown): error is JsYamlException => error instanceof Error && error.name === 'YAMLException'

/** The parser's own words, without its excerpt of the file or its position (given separately). */
const firstLine = (message: string) => message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '')

const CLOSERS: Record<string, string> = { '[': ']', '{': '}', '"': '"', "'": "'" }

/**
 * A parser notices an unclosed bracket or quote only where the next key starts. The line that
 * opened it, when a top-level value starts with one and the next line is a key of its own:
 * { line, key, opener }, counting lines of the file.
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

const OPENED: Record<string, string> = { '[': 'a list', '{': 'a mapping', '"': 'a quoted text', "'": 'a quoted text' }

/** The problem with a page's front matter, or null when Nextra will read it. `file` is relative to the project. */
export function checkFrontMatter(file: string, source: string): BadFrontMatterError | null {
  const found = frontMatterOf(source)
  if (found === null) return null
  if (!found.closed) return new BadFrontMatterError(file, 'it has no closing `---` line, so the whole page would be read as front matter', 1)
  const { text } = found
  try {
    yaml.parse(text)
  } catch (error) {
    const unclosed = unclosedValue(text)
    if (unclosed) {
      const { key, opener } = unclosed
      return new BadFrontMatterError(file, `the value of \`${key}\` starts with ${opener}, so YAML reads ${OPENED[opener]}, and it is not closed on its line`, unclosed.line)
    }
    const position = (error as YamlParseError).linePos?.[0]
    const message = firstLine((error as YamlParseError).message ?? String(error))
    return new BadFrontMatterError(file, message, position?.line, position?.col)
  }
  let data: unknown
  try {
    data = readFrontMatter(source).data
  } catch (error) {
    if (!isJsYamlException(error)) throw error
    const mark = error.mark
    return new BadFrontMatterError(file, error.reason ?? firstLine(error.message), mark ? mark.line + 1 : undefined, mark ? mark.column + 1 : undefined)
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    return new BadFrontMatterError(file, 'it is a list or a single value, not `key: value` lines', 2)
  }
  return null
}
