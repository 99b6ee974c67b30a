/** @jest-environment node */
import { accessEnvFor } from '../../lib/access/accessEnv'
import { compileAccess, decideAccess, readersOfMayOpen, type AccessConfig } from '../../lib/access'
import type { SectionDeclaration } from '../../lib/access/types'
import shipped from '../../access.config'

const access = compileAccess(shipped)
const as = (username: string | null) => (username === null ? null : { username })

// Who may read each path, row by row, for each kind of reader.
const table: Array<[path: string, user: string | null, expected: 'allow' | 'login' | 'deny']> = [
  ['/', null, 'login'],
  ['/', 'outsider', 'allow'],
  ['/', 'leads1', 'allow'],
  ['/docs/leads/intro', null, 'login'],
  ['/docs/leads/intro', 'leads1', 'allow'],
  ['/docs/leads/endpoints/create-quote', 'leads5', 'allow'],
  ['/docs/leads/intro', 'admin', 'allow'],
  ['/docs/leads/intro', 'internal1', 'deny'],
  ['/docs/leads/intro', 'support1', 'deny'],
  ['/docs/leads/intro', 'outsider', 'deny'],
  ['/docs/internal/intro', 'internal1', 'allow'],
  ['/docs/internal/data-lake/integration-sources/hoowla/case-enrichements', 'internal1', 'allow'],
  ['/docs/internal/intro', 'admin', 'allow'],
  ['/docs/internal/intro', 'leads1', 'deny'],
  ['/docs/internal/intro', 'support1', 'deny'],
  ['/docs/support-twilio/sql-queries/overall', 'support1', 'allow'],
  ['/docs/support-twilio/intro', 'admin', 'allow'],
  ['/docs/support-twilio/intro', 'internal1', 'deny'],
  ['/docs/support-twilio/intro', 'leads2', 'deny'],
  ['/docs', 'admin', 'allow'],
  ['/docs', 'leads1', 'deny'],
  ['/docs', 'internal1', 'deny'],
  ['/anything-else', 'admin', 'allow'],
  ['/anything-else', 'support1', 'deny'],
  ['/anything-else', null, 'login'],
  ['/login', null, 'allow'],
  ['/unauthorized', null, 'allow'],
  ['/404', null, 'allow'],
]

describe('decideAccess follows the path table with the shipped configuration', () => {
  test.each(table)('%s as %s -> %s', (path, user, expected) => {
    expect(decideAccess(access, path, as(user))).toBe(expected)
  })
})

describe('path spellings get the decision of their canonical route', () => {
  const cases: Array<[string, string | null, 'allow' | 'login' | 'deny']> = [
    ['/docs/leadsx', 'leads1', 'deny'],
    ['/docs/leadsx/intro', 'leads1', 'deny'],
    ['/docs/leads/../internal/intro', 'leads1', 'deny'],
    ['/docs/leads/%2e%2e/internal/intro', 'leads1', 'deny'],
    ['/docs/leads%2f..%2finternal/intro', 'leads1', 'deny'],
    ['/DOCS/INTERNAL/intro', 'leads1', 'deny'],
    ['/DOCS/LEADS/INTRO', 'leads1', 'allow'],
    ['//docs//leads//intro', 'leads1', 'allow'],
    ['/docs/leads/intro/', 'leads1', 'allow'],
    ['/docs/leads/intro.html', 'leads1', 'allow'],
    ['/docs/leads/endpoints/index', 'leads1', 'allow'],
    ['/docs/leads/endpoints/index.html', 'internal1', 'deny'],
    ['/docs/internal/intro?x=/docs/leads', 'leads1', 'deny'],
    ['/docs/internal/intro#/docs/leads', 'leads1', 'deny'],
    ['/docs/leads/%252e%252e/internal/intro', 'leads1', 'deny'],
    ['/docs/leads/%E0%A4%A', 'leads1', 'deny'],
    ['/../docs/leads/intro', 'leads1', 'deny'],
    ['/docs/leads\\..\\internal/intro', 'leads1', 'deny'],
    ['/index.html', 'outsider', 'allow'],
    ['/index', null, 'login'],
    ['/login?next=/docs/internal/intro', null, 'allow'],
    // Spellings that would read as another route if normalised twice are refused outright.
    ['/docs/leads/%3f', 'leads1', 'deny'],
    ['/docs/leads/intro%23', 'leads1', 'deny'],
    ['/docs/leads/%25', 'leads1', 'deny'],
    ['/docs/leads/intro.html.html', 'leads1', 'deny'],
    ['/docs/leads/endpoints/index/index', 'leads1', 'deny'],
    ['/docs/leads/...html', 'leads1', 'deny'],
  ]
  test.each(cases)('%s as %s -> %s', (path, user, expected) => {
    expect(decideAccess(access, path, as(user))).toBe(expected)
  })
})

const base: AccessConfig = {
  protectDocs: true,
  lists: { fullAccessUsers: 'boss', leadsUsers: 'lee', internalUsers: 'ian', twilioSupportUsers: 'sue' },
  rules: [
    { path: '/', match: 'exact', require: 'signedIn' },
    { path: '/docs/leads', match: 'prefix', require: 'leadsUsers' },
  ],
  sections: [],
  fallback: 'fullAccessUsers',
  publicPaths: ['/login', '/unauthorized', '/session-too-large'],
}

describe('list parsing and merging', () => {
  test('entries are trimmed, empty entries ignored, matched exactly', () => {
    const compiled = compileAccess({ ...base, lists: { ...base.lists, leadsUsers: ' lee ,, Lee2 , ' } })
    expect(decideAccess(compiled, '/docs/leads/intro', as('lee'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', as('Lee2'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', as('lee2'))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/intro', as('le'))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/intro', as(' lee'))).toBe('deny')
  })

  test('full-access users are merged into every list', () => {
    const compiled = compileAccess(base)
    expect(decideAccess(compiled, '/docs/leads/intro', as('boss'))).toBe('allow')
    expect(decideAccess(compiled, '/elsewhere', as('boss'))).toBe('allow')
    expect(decideAccess(compiled, '/elsewhere', as('lee'))).toBe('deny')
  })

  test('a group entry admits every reader whose token carries the group, matched exactly; full-access groups reach every list', () => {
    const compiled = compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'lee, group:partners', fullAccessUsers: 'boss, group:docs-admins' } })
    const reader = (groups: string[]) => ({ username: 'pat', groups })
    expect(decideAccess(compiled, '/docs/leads/intro', reader(['partners']))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', reader(['Partners']))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/intro', reader(['partners-eu']))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/intro', reader([]))).toBe('deny')
    expect(decideAccess(compiled, '/elsewhere', reader(['partners']))).toBe('deny')
    expect(decideAccess(compiled, '/elsewhere', reader(['docs-admins']))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', reader(['docs-admins']))).toBe('allow')
    // A username that looks like a group entry is still only a username.
    expect(decideAccess(compiled, '/docs/leads/intro', as('group:partners'))).toBe('deny')
  })

  test('a rule may require one group directly: its members and full-access readers pass, nobody else', () => {
    const compiled = compileAccess({
      ...base,
      lists: { ...base.lists, fullAccessUsers: 'boss, group:docs-admins' },
      rules: [{ path: '/docs/leads/finance', match: 'prefix', require: 'group:finance' }, ...base.rules],
    })
    const reader = (groups: string[]) => ({ username: 'pat', groups })
    expect(decideAccess(compiled, '/docs/leads/finance/q3', reader(['finance']))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/finance/q3', reader(['docs-admins']))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/finance/q3', as('boss'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/finance/q3', as('lee'))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/finance/q3', as('finance'))).toBe('deny')
    expect(decideAccess(compiled, '/docs/leads/intro', reader(['finance']))).toBe('deny')
  })

  test('a direct group requirement names exactly one group', () => {
    const rule = (require: string) => ({ ...base, rules: [{ path: '/docs/x', match: 'prefix' as const, require }] })
    const oneGroup = 'one group is written "group:<name>", with no commas'
    expect(() => compileAccess(rule('group:a, group:b'))).toThrow(`rule 1 (/docs/x) requires "group:a, group:b"; ${oneGroup}`)
    expect(() => compileAccess(rule('group:fin,'))).toThrow(`rule 1 (/docs/x) requires "group:fin,"; ${oneGroup}`)
    expect(() => compileAccess(rule('group:'))).toThrow('rule 1 (/docs/x) requires one group, and it is "group:" with no group name')
    expect(() => compileAccess({ ...base, fallback: 'group:a  b' })).toThrow(`fallback requires one group, and it is an entry containing whitespace: "group:a  b" (a group's name may hold single spaces between words)`)
    // A section may be read by one group too.
    const sections = [{ id: 'sales', title: 'Sales', description: 'Pipeline.', entry: '/docs/sales/intro', readers: 'group:sales' }]
    expect(decideAccess(compileAccess({ ...base, sections }), '/docs/sales/intro', { username: 'pat', groups: ['sales'] })).toBe('allow')
  })

  test('with protectDocs off any signed-in user reads everything, anonymous still signs in', () => {
    const compiled = compileAccess({ ...base, protectDocs: false })
    expect(decideAccess(compiled, '/docs/leads/intro', as('nobody'))).toBe('allow')
    expect(decideAccess(compiled, '/elsewhere', as('nobody'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', null)).toBe('login')
  })
})

describe('bad configuration fails with a message that names the problem', () => {
  test('a rule naming an unknown list', () => {
    const config = { ...base, rules: [{ path: '/docs/x', match: 'prefix', require: 'salesUsers' }] } as unknown as AccessConfig
    expect(() => compileAccess(config)).toThrow(/rule 1 \(\/docs\/x\) names an unknown list "salesUsers"/)
  })
  test('an unknown fallback list', () => {
    expect(() => compileAccess({ ...base, fallback: 'everyone' as never })).toThrow(/fallback names an unknown list "everyone"/)
  })
  test('a rule that names a list that does not exist', () => {
    expect(() => compileAccess({ ...base, rules: [{ path: '/sales', match: 'prefix', require: 'salesUsers' }] })).toThrow(/rule 1 \(\/sales\) names an unknown list "salesUsers"/)
  })
  test('a list that is empty after parsing where a rule needs it', () => {
    expect(() => compileAccess({ ...base, fallback: 'internalUsers', lists: { ...base.lists, leadsUsers: ' , ', fullAccessUsers: '' } })).toThrow(
      /list "leadsUsers" is empty after parsing/
    )
  })
  test('a list left empty where a rule needs it, though the full-access entries are merged into it (a list overridden with nothing, too)', () => {
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: ' , ' } })).toThrow(
      /list "leadsUsers" is empty after parsing, but a rule needs it; only fullAccessUsers could read those pages/
    )
    expect(() => compileAccess(base, { DOCS_LEADS_USERS: '' })).toThrow(/list "leadsUsers" is empty after parsing/)
  })
  test("a list's override variable at fault is named as where the list was written, not the file whose list it replaced", () => {
    const replaced = /^DOCS_LEADS_USERS \(set in place of list "leadsUsers" of access\.config\.ts\): list "leadsUsers" /
    for (const value of ['', 'leads1 leads2', 'internalUsers']) expect(() => compileAccess(base, { DOCS_LEADS_USERS: value })).toThrow(replaced)
    // The file's own list, at fault, is the file's.
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'leads1 leads2' } }, {})).toThrow(/^access\.config\.ts: list "leadsUsers" has an entry containing whitespace/)
  })
  test('a list named as a requirement that is no list: "signedIn", or a group', () => {
    const named = (name: string) => ({ ...base, lists: { ...base.lists, [name]: 'admin, ian' }, rules: [{ path: '/docs/x', match: 'prefix' as const, require: name }] })
    expect(() => compileAccess(named('signedIn'))).toThrow(/list "signedIn": the name is reserved/)
    expect(() => compileAccess(named('group:finance'))).toThrow(/list "group:finance": the name is reserved/)
  })
  test('a list named "public", which a decision reads as a public path: its pages would be open to anyone, signed in or not', () => {
    const lists = { ...base.lists, public: 'pr1' }
    expect(() => compileAccess({ ...base, lists, rules: [{ path: '/docs/x', match: 'prefix', require: 'public' }] })).toThrow(/list "public": the name is reserved/)
    expect(() => compileAccess({ ...base, lists, fallback: 'public' })).toThrow(/list "public": the name is reserved/)
    // Without such a list, a rule or the fallback requiring "public" is named for what it would do.
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/x', match: 'prefix', require: 'public' }] })).toThrow(/rule 1 \(\/docs\/x\) requires "public": no rule makes docs public/)
    expect(() => compileAccess({ ...base, fallback: 'public' })).toThrow(/fallback requires "public"/)
  })
  test('a username with whitespace', () => {
    expect(() => compileAccess({ ...base, lists: { ...base.lists, internalUsers: 'ian, jo smith' } })).toThrow(
      /list "internalUsers" has an entry containing whitespace: "jo smith"/
    )
  })
  test('an entry with an invisible character, or two entries joined by a semicolon, would match nobody', () => {
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'lee\u200b' } })).toThrow('list "leadsUsers" has an entry with an invisible or control character: "lee<U+200B>"')
    expect(() => compileAccess(base, { DOCS_LEADS_USERS: 'lee;ann' })).toThrow('list "leadsUsers" has an entry containing ";": "lee;ann"; entries are separated by commas')
  })
  test("a federated directory's group named with spaces (\"Sales Team\") is a list's entry or a rule's requirement; a username never holds a space", () => {
    const lists = { ...base.lists, leadsUsers: 'lee, group:Sales Team' }
    const compiled = compileAccess({ ...base, lists, rules: [...base.rules, { path: '/docs/x', match: 'prefix', require: 'group:Data Platform Team' }] })
    expect(decideAccess(compiled, '/docs/leads/intro', { username: 'pat', groups: ['Sales Team'] })).toBe('allow')
    expect(decideAccess(compiled, '/docs/leads/intro', { username: 'pat', groups: ['Sales'] })).toBe('deny')
    expect(decideAccess(compiled, '/docs/x/page', { username: 'pat', groups: ['Data Platform Team'] })).toBe('allow')
    for (const entry of ['group: Sales', 'group:Sales  Team', 'group:Sales\tTeam']) expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: entry } })).toThrow(/has an entry containing whitespace: .*\(a group's name may hold single spaces between words\)/)
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'sales team' } })).toThrow('list "leadsUsers" has an entry containing whitespace: "sales team"')
  })
  test('an entry that looks like a name but is spelt otherwise fails, naming the character: a blank-looking letter, a stray combining mark, a comma of another script, look-alike letters of two scripts (an admin-input review)', () => {
    const fails = (leadsUsers: string, message: string) => expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers } })).toThrow(`list "leadsUsers" has ${message}`)
    fails('leads1\u3164', 'an entry with a character that looks blank: "leads1<U+3164>"')
    fails('\u2800leads1', 'an entry with a character that looks blank: "<U+2800>leads1"')
    fails('leads1\ufe0f', 'an entry with a combining mark on no letter: "leads1<U+FE0F>"')
    fails('leads1\u0301', 'an entry with a combining mark on no letter: "leads1<U+0301>"')
    fails('leads1\uff0cleads2', 'an entry containing a comma of another script: "leads1<U+FF0C>leads2"; entries are separated by "," (U+002C)')
    fails('leads1\u3001leads2', 'an entry containing a comma of another script: "leads1<U+3001>leads2"')
    fails('l\u0435ads1', 'an entry mixing Latin and Cyrillic letters, which look alike: "l\u0435ads1"')
    fails('group:s\u0430les', 'an entry mixing Latin and Cyrillic letters')
    // Names of one script, and accents on letters, are names.
    const lists = { ...base.lists, leadsUsers: 'jos\u00e9, jose\u0301, \u0438\u0432\u0430\u043d, group:\u041f\u0440\u043e\u0434\u0430\u0436\u0438, \u03b1\u03bb\u03ad\u03be\u03b7\u03c2, o\'brien' }
    expect([...compileAccess({ ...base, lists }).members.leadsUsers.users].sort()).toEqual(expect.arrayContaining(['jos\u00e9', 'jose\u0301', '\u0438\u0432\u0430\u043d', '\u03b1\u03bb\u03ad\u03be\u03b7\u03c2', "o'brien"]))
  })
  test('a group entry with no name', () => {
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'lee, group:' } })).toThrow(/list "leadsUsers" has "group:" with no group name/)
  })
  test("a groups claim other than the one the pool fills from a provider's groups, which a reader could write (locale) to join any group", () => {
    for (const claim of ['locale', 'custom groups', 'cognito:groups', 'custom:team', 'email', 'Custom:groups', 7]) {
      expect(() => compileAccess({ ...base, groupsClaim: claim as never })).toThrow(`groupsClaim ${JSON.stringify(claim)} must be "custom:groups", or be left out`)
    }
    expect(compileAccess({ ...base, groupsClaim: 'custom:groups' }).groupsClaim).toBe('custom:groups')
    expect(compileAccess({ ...base, groupsClaim: undefined }).groupsClaim).toBeNull()
  })
  test('a rule path that is not canonical', () => {
    expect(() => compileAccess({ ...base, rules: [{ path: '/Docs/Leads/', match: 'prefix', require: 'leadsUsers' }] })).toThrow(
      /must be written in canonical form \("\/docs\/leads"\)/
    )
  })
  test('a name is decided in one form however its accents are stored: composed (NFC) or decomposed (NFD, as a Mac writes file names), and a rule is written composed (a review served a decomposed twin of a restricted folder to its section)', () => {
    const internal = { path: '/docs/internal', match: 'prefix', require: 'internalUsers' } as const
    const restricted = compileAccess({ ...base, rules: [{ path: '/docs/internal/\u00e9quipe', match: 'prefix', require: 'fullAccessUsers' }, internal] })
    expect(decideAccess(restricted, '/docs/internal/equipe/other.txt', { username: 'ian' })).toBe('allow')
    for (const spelling of ['/docs/internal/e\u0301quipe/leak.txt', '/docs/internal/e%CC%81quipe/leak.txt', '/docs/internal/E%CC%81QUIPE/leak.txt', '/docs/internal/%C3%A9quipe/leak.txt']) {
      expect([spelling, decideAccess(restricted, spelling, { username: 'ian' })]).toEqual([spelling, 'deny'])
      expect([spelling, decideAccess(restricted, spelling, { username: 'boss' })]).toEqual([spelling, 'allow'])
    }
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/internal/e\u0301quipe', match: 'prefix', require: 'fullAccessUsers' }] })).toThrow(/must be written in canonical form \("\/docs\/internal\/\u00e9quipe"\)/)
  })
  test('a rule path or public path with a segment that starts with "_", which no page has (a folder\'s own words are decided at one)', () => {
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/leads/_meta', match: 'exact', require: 'signedIn' }] })).toThrow(/rule .*"\/docs\/leads\/_meta" names a segment that starts with "_"/)
    expect(() => compileAccess({ ...base, publicPaths: [...base.publicPaths, '/docs/_x/y'] })).toThrow(/public path path "\/docs\/_x\/y" names a segment/)
  })
  test('a field left out, misspelt or of the wrong kind fails, naming it: the build bundles the config without type-checking it', () => {
    const { protectDocs: _on, ...unprotected } = base
    expect(() => compileAccess(unprotected as AccessConfig)).toThrow('access.config.ts: protectDocs must be true or false, not missing: true applies the lists and rules; false lets every signed-in reader read everything')
    expect(() => compileAccess({ ...base, protectDocs: 'yes' as never })).toThrow(/protectDocs must be true or false, not "yes"/)
    const { publicPaths, ...rest } = base
    expect(() => compileAccess({ ...rest, publicpaths: publicPaths } as never)).toThrow('access.config.ts: unknown field "publicpaths" (did you mean "publicPaths"?); the fields are protectDocs, lists, sections, groupsClaim, rules, fallback, publicPaths, aiTools')
    const { rules: _rules, ...ruleless } = base
    expect(() => compileAccess(ruleless as AccessConfig)).toThrow('access.config.ts: rules must be a list of { path, match, require } (write rules: [] for none)')
    expect(() => compileAccess({ ...base, rules: [{ match: 'exact', require: 'leadsUsers' }] as never })).toThrow(/rule 1 must be \{ path, match, require \}/)
    expect(() => compileAccess({ ...base, lists: 'admin' as never })).toThrow(/lists must be an object of lists/)
  })
  test("the site's own redirect targets must be public, or a reader sent there is sent there again without end", () => {
    expect(() => compileAccess({ ...base, publicPaths: ['/login', '/unauthorised', '/session-too-large'] })).toThrow(
      'access.config.ts: publicPaths must hold "/unauthorized": the site sends readers there (to sign in, when they may not open a page, when their cookies are too large), and a page that is not public sends them there again, without end'
    )
    expect(() => compileAccess({ ...base, publicPaths: ['/unauthorized', '/session-too-large'] })).toThrow(/publicPaths must hold "\/login"/)
  })
  test('a docs page (the home page among them) in publicPaths fails, naming it: anyone could read it, and its Markdown, search entries and llms files, signed in or not', () => {
    for (const page of ['/', '/docs', '/docs/internal', '/docs/internal/intro', '/docs/elsewhere/page']) {
      expect(() => compileAccess({ ...base, publicPaths: [...base.publicPaths, page] })).toThrow(`publicPaths holds "${page}", a page of the docs`)
    }
    // The site's own pages, outside the docs, stay public; a path that only starts with the docs' letters is not under them.
    expect(compileAccess({ ...base, publicPaths: [...base.publicPaths, '/docs-status'] }).publicPaths.has('/docs-status')).toBe(true)
  })
  test('an entry that reads as something else matches nobody, and fails, naming it: a group misspelt, a wildcard, a list or requirement by name', () => {
    for (const entry of ['GROUP:partners', 'Group:support-team', 'groups:support-team']) {
      expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: `leads1, ${entry}` } })).toThrow(`list "leadsUsers" has the entry "${entry}", which reads as a group but is a username`)
    }
    for (const entry of ['*', 'lead*']) expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: entry } })).toThrow(`list "leadsUsers" has the entry "${entry}": entries name users and groups exactly, with no wildcard`)
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'leads1, internalUsers' } })).toThrow('list "leadsUsers" has the entry "internalUsers", which names a list, not a user')
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'signedIn' } })).toThrow('list "leadsUsers" has the entry "signedIn", which names a requirement, not a user')
    // Through an override variable too.
    expect(() => compileAccess(base, { DOCS_LEADS_USERS: 'Group:support-team' })).toThrow(/reads as a group but is a username/)
    // In another case (the user pool's usernames are not case-sensitive), and the words a decision reads.
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'leads1, internalusers' } })).toThrow('list "leadsUsers" has the entry "internalusers", which names a list ("internalUsers", in another case), not a user')
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'SIGNEDIN' } })).toThrow('which names a requirement ("signedIn", in another case), not a user')
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: 'leads1, public' } })).toThrow('list "leadsUsers" has the entry "public", which names a requirement, not a user')
  })
  test('an entry in quotes (copied from code or a sheet) matches nobody, and fails, naming it', () => {
    for (const entry of ['"leads1"', "'leads1'", '“leads1”', '`group:support-team`']) {
      expect(() => compileAccess({ ...base, lists: { ...base.lists, leadsUsers: `leads2, ${entry}` } })).toThrow(`list "leadsUsers" has the entry ${entry}, in quotes; write entries bare`)
    }
    // A quote inside a name is the name's.
    expect(compileAccess({ ...base, lists: { ...base.lists, leadsUsers: "o'brien" } }).members.leadsUsers.users.has("o'brien")).toBe(true)
  })
  test('a requirement of one group is read by the rules of a list entry: no invisible character, no ";"', () => {
    expect(() => compileAccess({ ...base, fallback: 'group:support\u200b-team' })).toThrow('access.config.ts: fallback requires one group, and it is an entry with an invisible or control character: "group:support<U+200B>-team"')
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/x', match: 'prefix', require: 'group:fin;ance' }] })).toThrow('access.config.ts: rule 1 (/docs/x) requires one group, and it is an entry containing ";": "group:fin;ance"; entries are separated by commas')
  })
  test('an override variable that names no list fails, as do two lists of one variable: a misspelt one would change nothing, with no word', () => {
    // What the edge and AI tools' bundles bake in (pipeline/steps/bakedBundle.ts): the build's and deploy:access's environment.
    expect(() => accessEnvFor(Object.keys(base.lists), { DOCS_LEAD_USERS: 'outsider' })).toThrow(
      'access.config.ts: DOCS_LEAD_USERS (did you mean DOCS_LEADS_USERS?) is set, but is no variable of the access rules; they are DOCS_PROTECT, DOCS_FULL_ACCESS_USERS, DOCS_LEADS_USERS, DOCS_INTERNAL_USERS, DOCS_TWILIO_SUPPORT_USERS'
    )
    expect(accessEnvFor(Object.keys(base.lists), { DOCS_LEADS_USERS: 'lee', DOCS_PROTECT: 'true', DOCS_AUTH_MODE: 'local' })).toEqual({ DOCS_LEADS_USERS: 'lee', DOCS_PROTECT: 'true' })
    // Within two edits of a list's variable, whatever its ending: named, with the one meant.
    for (const misspelt of ['DOCS_LEADS_USER', 'DOCS_LEADSUSERS', 'DOCS_LEADS_USERS_', 'DOCS_LAEDS_USERS', 'DOCS_INTERNAL_USRES', 'DOCS_LEADS', 'DOCS_INTERNAL', 'docs_leads_users', 'Docs_Internal_Users']) {
      expect(() => accessEnvFor(Object.keys(base.lists), { [misspelt]: 'outsider' })).toThrow(new RegExp(`^access\\.config\\.ts: ${misspelt} \\(did you mean DOCS_(LEADS|INTERNAL)_USERS\\?\\) is set, but is no variable of the access rules`))
    }
    // The switch that turns protection off fails open when misspelt under protectDocs: false, closed
    // under true: either way it is named.
    for (const misspelt of ['DOCS_PROTECTED', 'DOCS_PROTECT_DOCS', 'DOCS_PORTECT', 'docs_protect', 'DOCS_UNPROTECT']) {
      expect(() => accessEnvFor(Object.keys(base.lists), { [misspelt]: 'true' })).toThrow(`access.config.ts: ${misspelt} (did you mean DOCS_PROTECT?) is set, but is no variable of the access rules`)
    }
    expect(() => compileAccess({ ...base, lists: { ...base.lists, protect: 'alice' } })).toThrow('access.config.ts: list "protect" would be overridden by DOCS_PROTECT, which turns protection off; rename it')
    // The project's own settings are no list's.
    const own = ['DOCS_AUTH_MODE', 'DOCS_COGNITO_CLIENT_ID', 'DOCS_SITE_URL', 'DOCS_SOURCE_URL', 'DOCS_ACCESS_LOG', 'DOCS_SEARCH_SHARD_PAGES', 'DOCS_RENDER_ROUTES', 'DOCS_FALLBACK', 'DOCS_OAUTH_TABLE', 'DOCS_SITE_BUCKET', 'DOCS_DIR', 'DOCS_ROOT', 'DOCS_SCOPE', 'DOCS_VERSION', 'DOCS_PAGE']
    expect(accessEnvFor(Object.keys(base.lists), Object.fromEntries(own.map((name) => [name, 'x'])))).toEqual({})
    expect(() => compileAccess({ ...base, lists: { ...base.lists, leads_users: 'lee' } })).toThrow('access.config.ts: lists "leadsUsers" and "leads_users" would both be overridden by DOCS_LEADS_USERS; rename one of them')
  })
  test('a rule or a section with a field it does not have fails, naming it: an admin\'s `except` or `Require` would be read as absent', () => {
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/leads/x', match: 'prefix', require: 'leadsUsers', except: '/docs/leads/x/open' } as never] })).toThrow(
      'access.config.ts: rule 1 (/docs/leads/x): unknown field "except"; the fields are path, match, require'
    )
    expect(() => compileAccess({ ...base, rules: [{ path: '/docs/leads/x', match: 'prefix', require: 'leadsUsers', Require: 'internalUsers' } as never] })).toThrow('rule 1 (/docs/leads/x): unknown field "Require" (did you mean "require"?)')
    const section = { id: 'sales', title: 'Sales', description: 'Deals.', entry: '/docs/sales/intro', reader: 'leadsUsers' }
    expect(() => compileAccess({ ...base, sections: [section as never] })).toThrow('section 1 (sales): unknown field "reader"; the fields are id, title, description, entry, readers')
  })
  test('DOCS_PROTECT other than "true" or "false" fails, naming its value: "0" or "no" would have left protection on, with no word', () => {
    for (const value of ['0', 'no', 'False', '']) expect(() => compileAccess(base, { DOCS_PROTECT: value })).toThrow(`access.config.ts: DOCS_PROTECT is ${JSON.stringify(value)}; set it to "true" or "false", or leave it unset`)
    expect(compileAccess(base, { DOCS_PROTECT: 'false' }).protectDocs).toBe(false)
    expect(compileAccess({ ...base, protectDocs: false }, { DOCS_PROTECT: 'true' }).protectDocs).toBe(true)
  })
  test('a section named index fails, naming the id: /docs/index is the /docs page', () => {
    const section: SectionDeclaration = { id: 'index', title: 'Index', description: 'x', entry: '/docs/index/intro', readers: 'leadsUsers' }
    expect(() => compileAccess({ ...base, sections: [section] })).toThrow('access.config.ts: section 1 (index): id "index" names the /docs page, not a folder; choose another id')
  })
  test('a section named docs fails too: the top _meta hides docs/ by that name, and the section would lose its tab and its pages\' tree (a review)', () => {
    const section: SectionDeclaration = { id: 'docs', title: 'Docs section', description: 'x', entry: '/docs/docs/intro', readers: 'leadsUsers' }
    expect(() => compileAccess({ ...base, sections: [section] })).toThrow('access.config.ts: section 1 (docs): id "docs" is the docs folder\'s own name in the navigation (/docs/docs/… would be hidden with it); choose another id')
  })
  test("a section's title and description are one line of plain text, as a writer's are: a review's description forged a list of links in its llms.txt", () => {
    const sales = (words: Partial<SectionDeclaration>): SectionDeclaration => ({ id: 'sales', title: 'Sales', description: 'Deals.', entry: '/docs/sales/intro', readers: 'leadsUsers', ...words })
    const fails = (words: Partial<SectionDeclaration>, message: string) => expect(() => compileAccess({ ...base, sections: [sales(words)] })).toThrow(`access.config.ts: section 1 (sales): ${message}`)
    fails({ description: 'Deals.\n\n## Pages\n\n- [Reset your password](https://evil.example/phish)' }, 'description holds U+000A (a line break, an invisible or a direction control): write it on one line, in plain characters')
    fails({ title: 'Sales \u202eelas' }, 'title holds U+202E (a line break')
    fails({ description: '\u200b' }, 'description holds U+200B (a line break')
    fails({ title: 'x'.repeat(301) }, 'title is 301 characters long; it holds at most 300')
    fails({ description: 'x'.repeat(2_001) }, 'description is 2,001 characters long; it holds at most 2,000')
    expect(compileAccess({ ...base, sections: [sales({ title: 'Sales & "partners" <EU>', description: 'مرحبا, deals [and] more.' })] }).sections[0].title).toBe('Sales & "partners" <EU>')
  })
  test('a missing full-access list', () => {
    const { fullAccessUsers: _omit, ...lists } = base.lists
    expect(() => compileAccess({ ...base, lists })).toThrow(/list "fullAccessUsers" is missing/)
  })
  test.each<[string, Partial<SectionDeclaration>, RegExp]>([
    ['an id that is not a slug', { id: 'Sales Docs' }, /section 1 \(Sales Docs\): id must be a lowercase slug/],
    ['an entry outside the section', { entry: '/docs/leads/intro' }, /entry "\/docs\/leads\/intro" must be a canonical page path under \/docs\/sales\//],
    ['a missing title', { title: ' ' }, /section 1 \(sales\): title is missing/],
    ['readers that name no list', { readers: 'salesUsers' }, /section 1 \(sales\) names an unknown list "salesUsers"/],
    ['readers "signedIn", which is no list', { readers: 'signedIn' }, /section 1 \(sales\): a section's readers are a list or one group, not "signedIn"\. To open the section to every signed-in reader, keep a list of its readers here and add a rule: \{ path: '\/docs\/<id>', match: 'prefix', require: 'signedIn' \}/],
  ])('a section with %s', (_case, change, message) => {
    const section: SectionDeclaration = { id: 'sales', title: 'Sales', description: 'Pipeline.', entry: '/docs/sales/intro', readers: 'leadsUsers', ...change }
    expect(() => compileAccess({ ...base, sections: [section] })).toThrow(message)
  })
  test('a section declared twice', () => {
    const section: SectionDeclaration = { id: 'sales', title: 'Sales', description: 'Pipeline.', entry: '/docs/sales/intro', readers: 'leadsUsers' }
    expect(() => compileAccess({ ...base, sections: [section, section] })).toThrow(/section 2 \(sales\): id "sales" is declared twice/)
  })
})

describe('sections declared once, and lists overridden from the environment', () => {
  test("a section adds its own rule: /docs/<id> and everything under it need the section's readers", () => {
    const compiled = compileAccess({ ...base, lists: { ...base.lists, salesUsers: 'sam' }, sections: [{ id: 'sales', title: 'Sales', description: 'Pipeline.', entry: '/docs/sales/intro', readers: 'salesUsers' }] })
    expect(decideAccess(compiled, '/docs/sales/intro', as('sam'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/sales/deals/q3', as('sam'))).toBe('allow')
    expect(decideAccess(compiled, '/docs/sales/intro', as('lee'))).toBe('deny')
    expect(decideAccess(compiled, '/docs/salesx', as('sam'))).toBe('deny')
    expect(compiled.sections.map((section) => section.id)).toEqual(['sales'])
  })
  test('DOCS_<LIST_NAME> replaces a list, and DOCS_PROTECT=false lets any signed-in user read everything', () => {
    const overridden = compileAccess(base, { DOCS_LEADS_USERS: 'zed' })
    expect(decideAccess(overridden, '/docs/leads/intro', as('zed'))).toBe('allow')
    expect(decideAccess(overridden, '/docs/leads/intro', as('lee'))).toBe('deny')
    expect(decideAccess(compileAccess(base, { DOCS_PROTECT: 'false' }), '/elsewhere', as('nobody'))).toBe('allow')
    expect(() => compileAccess(base, { DOCS_LEADS_USERS: 'group:' })).toThrow(/list "leadsUsers" has "group:" with no group name/)
  })
})

describe('readersOfMayOpen: what a page may show before its reader is known', () => {
  const may = (from: string, to: string) => readersOfMayOpen(access, from, to)
  test.each<[string, string, boolean]>([
    ['/docs/leads/intro', '/docs/leads/endpoints/create-quote', true],
    ['/docs/leads/intro', '/docs/internal/intro', false],
    ['/docs/internal/intro', '/docs/support-twilio/intro', false],
    ['/docs/leads/intro', '/', true],
    ['/docs/leads/intro', '/login', true],
    ['/', '/docs/leads/intro', false],
    // Full-access users are in every list, so a full-access page may show every section.
    ['/docs', '/docs/internal/intro', true],
    // A public page's readers may not be signed in at all.
    ['/login', '/', false],
    ['/login', '/unauthorized', true],
    ['/docs/leads/../internal/intro', '/docs/internal/intro', true],
  ])('from %s to %s: %s', (from, to, expected) => {
    expect(may(from, to)).toBe(expected)
  })

  test('with protection off every signed-in page may show every page', () => {
    const open = compileAccess({ ...shipped, protectDocs: false })
    expect(readersOfMayOpen(open, '/', '/docs/internal/intro')).toBe(true)
    expect(readersOfMayOpen(open, '/login', '/docs/internal/intro')).toBe(false)
  })
})
