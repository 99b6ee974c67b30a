/**
 * Keeps the README and the guides true to the repository. In each Markdown file:
 * - every relative link resolves to a file or folder, and every `#anchor` to a heading of its file,
 *   with GitHub's heading slugs;
 * - every `npm run <script>` (and `npm start`, `npm test`) names a script of package.json;
 * - every environment variable named is one the code reads (scripts/docs/envNames.ts). A variable
 *   is an upper-case name with an underscore that is a whole code span (`DOCS_PROTECT`), or any
 *   upper-case name set in a command (`WAF=on`, in a code span or block); `DOCS_<LIST_NAME>` or
 *   `DOCS_COGNITO_*` stands for the names the code reads that start with its prefix.
 * Each problem names the file and the line.
 */
import fs from 'node:fs'
import path from 'node:path'

export interface GuideProblem {
  file: string
  line: number
  problem: string
}

export interface GuideFacts {
  /** The scripts of package.json. */
  scripts: ReadonlySet<string>
  /** The environment variables the code reads. */
  envNames: ReadonlySet<string>
}

/** README.md and docs/*.md, relative to `root`. */
export function guideFiles(root: string): string[] {
  const docs = path.join(root, 'docs')
  const guides = fs.existsSync(docs) ? fs.readdirSync(docs).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`) : []
  return ['README.md', ...guides]
}

/** A line of a Markdown file, and whether it is inside a fenced code block. */
interface SourceLine {
  number: number
  text: string
  fenced: boolean
}

function linesOf(source: string): SourceLine[] {
  let fence: string | null = null
  return source.split('\n').map((text, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(text)?.[1]
    if (marker && fence === null) {
      fence = marker
      return { number: index + 1, text, fenced: true }
    }
    if (marker && fence !== null && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) {
      fence = null
      return { number: index + 1, text, fenced: true }
    }
    return { number: index + 1, text, fenced: fence !== null }
  })
}

const CODE_SPAN = /(`+)(.+?)\1/g

/**
 * GitHub's anchor for a heading: its text, lower case, without punctuation but hyphens and
 * underscores, spaces turned to hyphens; a repeated heading gets `-1`, `-2`, … .
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim()
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** Every anchor of a Markdown file: its headings' slugs and explicit `<a id>` or `name` anchors. */
export function anchorsOf(source: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of linesOf(source)) {
    if (line.fenced) continue
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text)
    if (heading) {
      const slug = githubSlug(heading[1])
      const count = seen.get(slug) ?? 0
      seen.set(slug, count + 1)
      anchors.add(count === 0 ? slug : `${slug}-${count}`)
    }
    for (const match of line.text.matchAll(/<a\s[^>]*(?:id|name)=["']([^"']+)["']/g)) anchors.add(match[1])
  }
  return anchors
}

const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i

function checkLink(root: string, file: string, target: string, report: (problem: string) => void): void {
  if (EXTERNAL.test(target)) return
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined]
  const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)))
  if (resolved.startsWith('..') || !fs.existsSync(path.join(root, resolved))) {
    report(`${target}: no file ${resolved}`)
    return
  }
  if (anchor === undefined) return
  if (!resolved.endsWith('.md')) {
    report(`${target}: ${resolved} is not Markdown, so it has no #${anchor}`)
    return
  }
  if (!anchorsOf(fs.readFileSync(path.join(root, resolved), 'utf8')).has(anchor)) report(`${target}: ${resolved} has no heading with the anchor #${anchor}`)
}

const NPM_SCRIPT = /\bnpm\s+(?:run(?:-script)?\s+([\w:.-]*[\w:-])|(start|test)\b)/g
const UPPER = '[A-Z][A-Z0-9_]*'
/** A code span that is one upper-case name with an underscore, or such a name and a placeholder (`DOCS_<LIST_NAME>`, `DOCS_COGNITO_*`). */
const NAME_SPAN = new RegExp(`^(${UPPER}_[A-Z0-9_]*|${UPPER})(<[^>]*>|\\*)?(?:=.*)?$`)
/** A variable set in a command: at the start of the code or after a space. */
const ASSIGNMENT = new RegExp(`(?:^|\\s)(${UPPER})=`, 'g')

function checkEnvName(name: string, pattern: boolean, facts: GuideFacts, report: (problem: string) => void): void {
  if (pattern) {
    if (![...facts.envNames].some((known) => known.startsWith(name) && known !== name)) report(`${name}…: the code reads no environment variable that starts with ${name}`)
    return
  }
  if (!facts.envNames.has(name)) report(`${name}: the code reads no such environment variable`)
}

/** The names a piece of code sets or is: `NAME=…` anywhere, or the whole span as one name. */
function envNamesIn(code: string, wholeSpan: boolean): { name: string; pattern: boolean }[] {
  const found = new Map<string, boolean>()
  if (wholeSpan) {
    const span = NAME_SPAN.exec(code.trim())
    if (span && (span[1].includes('_') || code.includes('='))) found.set(span[1], Boolean(span[2]))
  }
  for (const match of code.matchAll(ASSIGNMENT)) if (!found.has(match[1])) found.set(match[1], false)
  return [...found].map(([name, pattern]) => ({ name, pattern }))
}

/** Every problem of one Markdown file, `file` relative to `root`. */
export function checkGuide(root: string, file: string, facts: GuideFacts): GuideProblem[] {
  const problems: GuideProblem[] = []
  for (const line of linesOf(fs.readFileSync(path.join(root, file), 'utf8'))) {
    const report = (problem: string) => problems.push({ file, line: line.number, problem })
    for (const match of line.text.matchAll(NPM_SCRIPT)) {
      const script = match[1] ?? match[2]
      if (!facts.scripts.has(script)) report(`npm ${match[1] ? 'run ' : ''}${script}: package.json has no script "${script}"`)
    }
    if (line.fenced) {
      for (const { name, pattern } of envNamesIn(line.text, false)) checkEnvName(name, pattern, facts, report)
      continue
    }
    for (const match of line.text.matchAll(CODE_SPAN)) for (const { name, pattern } of envNamesIn(match[2], true)) checkEnvName(name, pattern, facts, report)
    const prose = line.text.replace(CODE_SPAN, '')
    const reference = REFERENCE.exec(prose)
    const targets = [...[...prose.matchAll(LINK)].map((match) => match[1]), ...(reference ? [reference[1]] : [])]
    for (const target of targets) checkLink(root, file, target, report)
  }
  return problems
}

/** Every problem of the README and the guides. */
export function checkGuides(root: string, facts: GuideFacts, files: readonly string[] = guideFiles(root)): GuideProblem[] {
  return files.flatMap((file) => checkGuide(root, file, facts))
}

export const formatProblems = (problems: readonly GuideProblem[]) => problems.map(({ file, line, problem }) => `${file}:${line}: ${problem}`).join('\n')
