import { AccessConfigError } from './errors'
import { characterCount, codePointName, TEXT_MOST } from '../plainText.mjs'
import { NO_ACCESS_PAGE, OVERSIZED_COOKIES_PAGE, SIGN_IN_PAGE } from '../pathFormats'
import { isUnderPrefix, normalisePath } from './normalisePath'
import { entryProblem, GROUP_PREFIX, parseUserList, shownEntry, type ListEntries } from './parseUserList'
import { listEnvVar, PROTECT_ENV_VAR, type AccessEnv } from './accessEnv'
import { DOCS_ROOT, inSection, isReservedSegment, sectionPrefix } from './sectionPaths'
import { FULL_ACCESS_LIST, GROUPS_CLAIM, type AccessConfig, type ListName, type PathRule, type Requirement, type SectionDeclaration } from './types'

/** Who a list admits: users by exact username, and readers whose verified token carries a group. */
export interface ListMembers {
  users: ReadonlySet<string>
  groups: ReadonlySet<string>
}


/** The configuration checked and parsed once, in the form every decision reads. */
export interface CompiledAccess {
  protectDocs: boolean
  /** Each list already holds the full-access entries. */
  members: Record<ListName, ListMembers>
  /** The docs sections, checked, in navbar order. */
  sections: readonly SectionDeclaration[]
  /** The claim, besides `cognito:groups`, that carries a federated identity provider's groups. */
  groupsClaim: string | null
  rules: readonly PathRule[]
  fallback: Requirement
  publicPaths: ReadonlySet<string>
}

function canonicalRulePath(path: string, where: string): string {
  const canonical = normalisePath(path)
  if (canonical === null || canonical !== path) {
    throw new AccessConfigError(`${where} path "${path}" must be written in canonical form ("${canonical ?? 'invalid'}")`)
  }
  // No page has such a route, and a folder's own words are decided at one (folderWordsPath).
  if (canonical.split('/').some(isReservedSegment)) {
    throw new AccessConfigError(`${where} path "${path}" names a segment that starts with "_", which no page has`)
  }
  return canonical
}

const SECTION_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** The rule a section adds: everything under `/docs/<id>` needs the section's readers. */
export const sectionRule = (section: Pick<SectionDeclaration, 'id' | 'readers'>): PathRule => ({ path: sectionPrefix(section.id), match: 'prefix', require: section.readers })

/**
 * Why a section's title or description cannot be shown as one line of text, or null: the navbar,
 * the home cards, the llms files and the AI tools' answers show it, a control character (a line
 * break, a zero-width space) or a direction control would show other than it reads there, and a
 * block pasted into it would fill them.
 */
function sectionWordsProblem(text: string, most: number): string | null {
  const control = /[\p{C}\u2028\u2029]/u.exec(text)
  if (control) return `holds ${codePointName(control[0])} (a line break, an invisible or a direction control): write it on one line, in plain characters`
  const count = characterCount(text)
  return count > most ? `is ${count.toLocaleString('en-US')} characters long; it holds at most ${most.toLocaleString('en-US')}` : null
}

function checkSections(sections: unknown, checkReaders: (readers: unknown, where: string) => ListName): SectionDeclaration[] {
  if (!Array.isArray(sections)) throw new AccessConfigError('sections must be a list of section declarations')
  const seen = new Set<string>()
  return sections.map((section: SectionDeclaration, index) => {
    const where = `section ${index + 1} (${String(section?.id)})`
    if (typeof section?.id !== 'string' || !SECTION_ID.test(section.id)) throw new AccessConfigError(`${where}: id must be a lowercase slug like "support-twilio"`)
    // /docs/index is the /docs page itself: no folder of that name can be a section's.
    if (section.id === 'index') throw new AccessConfigError(`${where}: id "index" names the /docs page, not a folder; choose another id`)
    // The top _meta names docs/ itself "docs", hidden: a section of that id would lose its tab and its pages' tree.
    if (section.id === 'docs') throw new AccessConfigError(`${where}: id "docs" is the docs folder's own name in the navigation (/docs/docs/… would be hidden with it); choose another id`)
    if (seen.has(section.id)) throw new AccessConfigError(`${where}: id "${section.id}" is declared twice`)
    seen.add(section.id)
    for (const field of ['title', 'description'] as const) {
      if (typeof section[field] !== 'string' || !section[field].trim()) throw new AccessConfigError(`${where}: ${field} is missing`)
      const problem = sectionWordsProblem(section[field], TEXT_MOST[field])
      if (problem) throw new AccessConfigError(`${where}: ${field} ${problem}`)
    }
    const entry = normalisePath(String(section.entry))
    if (entry === null || entry !== section.entry || entry === sectionPrefix(section.id) || !inSection(entry, section.id)) {
      throw new AccessConfigError(`${where}: entry "${String(section.entry)}" must be a canonical page path under ${sectionPrefix(section.id)}/`)
    }
    return { id: section.id, title: section.title, description: section.description, entry, readers: checkReaders(section.readers, where) }
  })
}

/**
 * Validates the admin's configuration, applies the list overrides of `env` (DOCS_<LIST_NAME>,
 * DOCS_PROTECT) and parses the lists. The build, the edge and the local server start from this,
 * so a bad config fails the build instead of shipping rules that differ from what the admin wrote.
 */
export function compileAccess(config: AccessConfig, env: AccessEnv = process.env): CompiledAccess {
  checkShape(config)
  const lists = config.lists
  if (lists[FULL_ACCESS_LIST] === undefined) throw new AccessConfigError(`list "${FULL_ACCESS_LIST}" is missing`)
  const listNames = Object.keys(lists)
  /** Where a list was written, for its errors: its override variable, which replaces the file's list, when set. */
  const sourceOf = (name: ListName) => (env[listEnvVar(name)] === undefined ? undefined : `${listEnvVar(name)} (set in place of list "${name}" of access.config.ts)`)
  const parsed: Record<ListName, ListEntries> = {}
  for (const name of listNames) {
    // A requirement names a list, "signedIn" or "group:<name>", and a decision reads "public" for a
    // public path: a list by any of these names would be read as the other (a list "public" let
    // anyone in, signed in or not, wherever a rule required it).
    if (name === 'signedIn' || name === 'public' || name.startsWith(GROUP_PREFIX)) {
      throw new AccessConfigError(
        `list "${name}": the name is reserved (a rule requiring "signedIn" admits any signed-in reader, "group:<name>" the members of one group, and "public" is what the decision says of the site's own public pages); name the list another way`
      )
    }
    const raw = env[listEnvVar(name)] ?? lists[name]
    if (raw === undefined) throw new AccessConfigError(`list "${name}" is missing`)
    parsed[name] = parseUserList(name, raw, sourceOf(name))
  }
  // A list's or a requirement's name among a list's users matches nobody: lists do not include one another.
  // In any case: the user pool's usernames are not case-sensitive, and "internalusers" is a list's name mistyped far more often than a user's.
  const reserved = new Map(['signedIn', 'public', ...listNames].map((word) => [word.toLowerCase(), word]))
  for (const name of listNames) {
    const named = parsed[name].users.find((user) => reserved.has(user.toLowerCase()))
    if (named) {
      const word = reserved.get(named.toLowerCase())!
      throw new AccessConfigError(`list "${name}" has the entry "${named}", which names ${listNames.includes(word) ? 'a list' : 'a requirement'}${named === word ? '' : ` ("${word}", in another case)`}, not a user: a list holds usernames and "${GROUP_PREFIX}<name>" entries, and does not include another list; name its users, or give the section or rule the other list`, sourceOf(name))
    }
  }
  const declared = [...listNames]
  checkOverrides(listNames)
  // What a rule, a section or the fallback requires: a declared list, 'signedIn' (not for a
  // section), or one group written `group:<name>`, which reads as a list of that one entry, with
  // the full-access entries merged in like any list's.
  const checkRequirement = (requirement: unknown, where: string, signedIn = true): Requirement => {
    if ((signedIn && requirement === 'signedIn') || listNames.includes(requirement as string)) return requirement as Requirement
    if (requirement === 'public') {
      throw new AccessConfigError(`${where} requires "public": no rule makes docs public, as anyone could read them, signed in or not. "signedIn" admits every signed-in reader; the site's own pages (sign-in, no access) are in publicPaths`)
    }
    if (requirement === 'signedIn') {
      throw new AccessConfigError(
        `${where}: a section's readers are a list or one group, not "signedIn". To open the section to every signed-in reader, keep a list of its readers here and add a rule: { path: '/docs/<id>', match: 'prefix', require: 'signedIn' }`
      )
    }
    if (typeof requirement === 'string' && requirement.startsWith(GROUP_PREFIX)) {
      if (requirement.includes(',')) {
        throw new AccessConfigError(`${where} requires "${shownEntry(requirement)}"; one group is written "group:<name>", with no commas (several entries make a list in \`lists\`)`)
      }
      const problem = entryProblem(requirement)
      if (problem) throw new AccessConfigError(`${where} requires one group, and it is ${problem}`)
      parsed[requirement] = { users: [], groups: [requirement.slice(GROUP_PREFIX.length)] }
      listNames.push(requirement)
      return requirement
    }
    throw new AccessConfigError(`${where} names an unknown list "${String(requirement)}"; known lists: ${declared.join(', ')}${signedIn ? ', "signedIn"' : ''}, or one group as "group:<name>"`)
  }
  const sections = checkSections(config.sections, (readers, where) => checkRequirement(readers, where, false))

  const rules = [...config.rules, ...sections.map(sectionRule)].map((rule, index) => {
    const where = `rule ${index + 1} (${rule.path})`
    if (rule.match !== 'exact' && rule.match !== 'prefix') {
      throw new AccessConfigError(`${where} has match "${String(rule.match)}"; use "exact" or "prefix"`)
    }
    return { path: canonicalRulePath(rule.path, where), match: rule.match, require: checkRequirement(rule.require, where) }
  })
  const fallback = checkRequirement(config.fallback, 'fallback')

  const full = parsed[FULL_ACCESS_LIST]
  const members: Record<ListName, ListMembers> = {}
  for (const name of listNames) {
    members[name] = { users: new Set([...parsed[name].users, ...full.users]), groups: new Set([...parsed[name].groups, ...full.groups]) }
  }
  const groupsClaim = config.groupsClaim ?? null
  if (groupsClaim !== null && groupsClaim !== GROUPS_CLAIM) {
    throw new AccessConfigError(`groupsClaim ${JSON.stringify(groupsClaim)} must be "${GROUPS_CLAIM}", or be left out: that is the one claim the user pool fills from a provider's groups and no reader can write (any other, such as "locale", a reader could set to join any group), and cognito:groups is always read`)
  }

  const protect = env[PROTECT_ENV_VAR]
  // Only the two words: another value (`0`, `no`) would leave protection as it is, with no word.
  if (protect !== undefined && protect !== 'true' && protect !== 'false') throw new AccessConfigError(`${PROTECT_ENV_VAR} is ${JSON.stringify(protect)}; set it to "true" or "false", or leave it unset`)
  const protectDocs = protect === undefined ? config.protectDocs : protect === 'true'
  if (protectDocs) {
    const required = new Set<Requirement>([fallback, ...rules.map((rule) => rule.require)])
    for (const requirement of required) {
      // Its own entries: the full-access ones, merged into every list, do not make a list that was left empty mean anything.
      if (requirement !== 'signedIn' && parsed[requirement].users.length + parsed[requirement].groups.length === 0) {
        const only = requirement === FULL_ACCESS_LIST ? 'nobody could read those pages' : `only ${FULL_ACCESS_LIST} could read those pages (write "${FULL_ACCESS_LIST}" where that is meant)`
        throw new AccessConfigError(`list "${requirement}" is empty after parsing, but a rule needs it; ${only}`, sourceOf(requirement))
      }
    }
  }

  const publicPaths = new Set(config.publicPaths.map((path) => canonicalRulePath(path, 'public path')))
  // The site's own pages are public; the docs, the home page among them, are for signed-in readers.
  const docsPage = [...publicPaths].find((path) => path === '/' || isUnderPrefix(path, DOCS_ROOT))
  if (docsPage) {
    throw new AccessConfigError(
      `publicPaths holds "${docsPage}", a page of the docs: anyone could read it, signed in or not, with its Markdown, search entries and llms files. Public paths are the site's own pages (sign-in, no access, not found); to open a page to every signed-in reader, add a rule { path: '${docsPage}', match: 'exact', require: 'signedIn' }`
    )
  }
  const missing = SITE_REDIRECT_PAGES.filter((page) => !publicPaths.has(page))
  if (missing.length > 0) {
    throw new AccessConfigError(
      `publicPaths must hold ${missing.map((page) => `"${page}"`).join(' and ')}: the site sends readers there (to sign in, when they may not open a page, when their cookies are too large), and a page that is not public sends them there again, without end`
    )
  }
  return { protectDocs, members, sections, groupsClaim, rules, fallback, publicPaths }
}

/** Each list has an override variable of its own (./accessEnv.ts). */
function checkOverrides(listNames: readonly ListName[]): void {
  const byVariable = new Map<string, ListName>()
  for (const name of listNames) {
    const variable = listEnvVar(name)
    if (variable === PROTECT_ENV_VAR) throw new AccessConfigError(`list "${name}" would be overridden by ${PROTECT_ENV_VAR}, which turns protection off; rename it`)
    const other = byVariable.get(variable)
    if (other !== undefined) throw new AccessConfigError(`lists "${other}" and "${name}" would both be overridden by ${variable}; rename one of them`)
    byVariable.set(variable, name)
  }
}

/** The site's own pages it redirects readers to: each must be public, or a redirect there loops. */
const SITE_REDIRECT_PAGES = [SIGN_IN_PAGE, NO_ACCESS_PAGE, OVERSIZED_COOKIES_PAGE]

/** The fields of access.config.ts (lib/access/types.ts AccessConfig). */
const CONFIG_FIELDS: readonly (keyof AccessConfig)[] = ['protectDocs', 'lists', 'sections', 'groupsClaim', 'rules', 'fallback', 'publicPaths', 'aiTools']

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The configuration's fields and their kinds, before any is read: the build bundles the config
 * without type-checking it, and a field left out or misspelt would otherwise read as absent
 * (a missing protectDocs as false: every section open to every signed-in reader).
 */
function checkShape(config: unknown): asserts config is AccessConfig {
  if (!isRecord(config)) throw new AccessConfigError('the default export must be one object ({ protectDocs, lists, sections, rules, fallback, publicPaths, … })')
  assertKnownFields(config, CONFIG_FIELDS, '')
  if (typeof config.protectDocs !== 'boolean') {
    throw new AccessConfigError(`protectDocs must be true or false, not ${JSON.stringify(config.protectDocs) ?? 'missing'}: true applies the lists and rules; false lets every signed-in reader read everything`)
  }
  if (!isRecord(config.lists)) throw new AccessConfigError('lists must be an object of lists, each a comma-separated string ({ fullAccessUsers: \'admin\', … })')
  for (const field of ['rules', 'publicPaths'] as const) {
    if (!Array.isArray(config[field])) throw new AccessConfigError(`${field} must be a list${field === 'rules' ? ' of { path, match, require } (write rules: [] for none)' : ' of paths anyone may open'}`)
  }
  for (const path of config.publicPaths as unknown[]) if (typeof path !== 'string') throw new AccessConfigError(`publicPaths holds ${JSON.stringify(path)}, which is not a path`)
  for (const [index, rule] of (config.rules as unknown[]).entries()) {
    if (!isRecord(rule) || typeof rule.path !== 'string') throw new AccessConfigError(`rule ${index + 1} must be { path, match, require }, with path a string like "/docs/leads/pricing"`)
    assertKnownFields(rule, RULE_FIELDS, `rule ${index + 1} (${rule.path}): `)
  }
  if (Array.isArray(config.sections)) {
    for (const [index, section] of (config.sections as unknown[]).entries()) if (isRecord(section)) assertKnownFields(section, SECTION_FIELDS, `section ${index + 1} (${String(section.id)}): `)
  }
}

const RULE_FIELDS: readonly (keyof PathRule)[] = ['path', 'match', 'require']
const SECTION_FIELDS: readonly (keyof SectionDeclaration)[] = ['id', 'title', 'description', 'entry', 'readers']

/**
 * The first field of `record` that is none of `fields`, as a problem (`unknown field "x" (did you
 * mean "y"?); the fields are …`), or null: a misspelt or invented field would be read as absent,
 * with no word. `meant` tells a known field the writer likely meant (by default: it in other case).
 */
export function unknownFieldProblem(record: object, fields: readonly string[], meant = (field: string, known: string) => known.toLowerCase() === field.toLowerCase()): string | null {
  const field = Object.keys(record).find((name) => !fields.includes(name))
  if (field === undefined) return null
  const guess = fields.find((known) => meant(field, known))
  return `unknown field "${field}"${guess ? ` (did you mean "${guess}"?)` : ''}; the fields are ${fields.join(', ')}`
}

/** Refuses a field `record` may not have (unknownFieldProblem). */
function assertKnownFields(record: Record<string, unknown>, fields: readonly string[], where: string): void {
  const problem = unknownFieldProblem(record, fields)
  if (problem) throw new AccessConfigError(`${where}${problem}`)
}
