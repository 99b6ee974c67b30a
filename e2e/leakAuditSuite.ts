/**
 * The leak audit, for any server over the audit build: as each role, request every file (and
 * what the servers write per request) and count what each role can read that it may not know:
 * - the markers of sections it may not read, planted in a page body and a title, and of images it
 *   may not fetch;
 * - the markers of the pages that the audit profile's rules finer than a section govern (a page
 *   of a folder given to a list of its own, a page given to another list), in any file;
 * - distinctive page titles of pages it may not open (Nextra puts titles in page maps);
 * - the lists' names, and the names they hold: a marker username and a marker group added to every
 *   list, and every seeded user but the role itself;
 * - paths of pages it may not open, plain or escaped (manifests, page maps, stubs, search, llms);
 * - protected responses that a shared cache may keep.
 * The same counts are made of everything the AI tools' server (/mcp) answers each role's AI tool,
 * signed in as that role through the site's own sign-in, through the MCP SDK's own client: every
 * tool, every page of the build asked for by route, and searches for every marker, title and section.
 * Compressed files (Pagefind's) are read decompressed. The build's rules are its audit profile's
 * (scripts/audit/markers.ts AUDIT_PROFILES), and so are the decisions here; every expectation is
 * computed from them, so the audit holds for any profile.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { normalisePath } from '../lib/access/normalisePath'
import { inSection } from '../lib/access/sectionPaths'
import { READER_VIEW_PATH } from '../lib/access/readerView'
import { governingRuleOf, passes } from '../lib/access/decideAccess'
import { SECTIONS } from '../lib/navigation/siteNavigation'
import { access as shippedAccess } from '../lib/access'
import { FULL_ACCESS_LIST } from '../lib/access/types'
import { SEEDED_USERS, seededGroupsOf } from '../scripts/cognito/seed'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { MARKED_ROOT_FILE, type FinerMark, type MarkedSection } from '../scripts/audit/markers'
import { distinctiveTitles, knownPaths, noFindings, readBody, responseText, scanServed, titlesIn, type RoleFindings } from '../scripts/audit/scan'
import { publicFileRoute } from '../pipeline/steps/checkRules'
import { PASSWORD, siteEnv } from './siteEnv'
import type { McpAnswer } from './mcpSession'
import { signToolIn, withCookies, type SeenResponse } from './oauthTool'
import { MCP_PATH, RESOURCE_METADATA_PATH } from '../mcp/mcpHandler'
import { ROOT_LLMS_PATH } from '../lib/pathFormats'
import { AUTHORIZATION_SERVER_METADATA_PATH, CONNECTIONS_PATH } from '../lib/aiTools/oauthPaths'

/**
 * What the servers write per request rather than serve from out/: the reader's view, the root
 * llms.txt and the reader's AI-tool connections (each written for the one reader who asks), and
 * the public metadata of /mcp and of the authorization server.
 */
const PER_READER = [READER_VIEW_PATH, ROOT_LLMS_PATH, CONNECTIONS_PATH]
const GENERATED = [...PER_READER, RESOURCE_METADATA_PATH, AUTHORIZATION_SERVER_METADATA_PATH]
/** A response as the audit reads it. */
interface Received {
  status: number
  headers: [string, string][]
  cacheControl: string | null
  body: string
}

/**
 * `url` as a browser opens it (`Sec-Fetch-Mode: navigate`, which Node's fetch replaces with `cors`):
 * its status, headers and body, a redirect not followed.
 */
function openAsBrowser(url: string, cookie: string | undefined): Promise<Received> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html', ...(cookie ? { cookie } : {}) } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const headers = Object.entries(response.headers).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]]))
        const cacheControl = response.headers['cache-control'] ?? null
        resolve({ status: response.statusCode ?? 0, headers, cacheControl, body: readBody(Buffer.concat(chunks)) })
      })
    })
    request.on('error', reject)
  })
}

// supportlead is in the support-team group, so rules that require a group are audited too.
const BASE_ROLES = [null, 'admin', 'leads1', 'internal1', 'support1', 'supportlead', 'outsider'] as const
/** A reader, or null for an anonymous visitor: the base roles, and a reader of each section none of them reads (SECTION_READERS). */
export type Role = string | null


interface RoleReport extends RoleFindings {
  role: string
  allowed: number
  denied: number
  markersLeaked: string[]
  /** Content of the finer rules' pages read by a role that may not open them. */
  finerLeaked: string[]
  titlesLeaked: string[]
  ownMarkersSeen: Set<MarkedSection>
  /** Sections whose marked image this role read, where it may fetch it. */
  ownImagesSeen: Set<MarkedSection>
  /** Sections whose own `_meta` marker this role read, where it may open the section's folder. */
  ownMetasSeen: Set<MarkedSection>
  /** Whether this role read the writer's file at the root of public/, where it may fetch it. */
  rootFileSeen: boolean
  finerSeen: Set<FinerMark>
  /** Sections whose distinctive titles this role found in its readable files: proves the title search can find titles at all. */
  ownTitlesSeen: Set<string>
  /** Sections whose marked title (access.config.ts) this role read, where it may open a page of the section. */
  sectionTitlesSeen: Set<MarkedSection>
  /** Sections whose marked description this role read, where it reads the whole section. */
  sectionDescriptionsSeen: Set<MarkedSection>
  /** Refused pages whose answer differs from a made-up path's beside their rule: the answer confirms the rule's path. */
  refusalsTelling: string[]
  /** Refused pages compared with a made-up path beside their rule (so 0 telling refusals means something). */
  refusalsCompared: number
}

const env = siteEnv()
const { pages, routeOfFile } = env
/** Each page's source, as the audit build wrote it, by route: read once. */
const sources = new Map(pages.map((page) => [page.route, fs.readFileSync(path.join(env.dir, page.file), 'utf8')]))
const titles = distinctiveTitles([...sources].map(([route, source]) => ({ route, title: /^title: (.+)$/m.exec(source)?.[1]?.trim() })))
const sections = Object.keys(env.markers.body) as MarkedSection[]
const emptyReport = (role: Role): RoleReport => ({
  role: role ?? 'anonymous',
  allowed: 0,
  denied: 0,
  markersLeaked: [],
  finerLeaked: [],
  titlesLeaked: [],
  ...noFindings(),
  ownMarkersSeen: new Set(),
  ownImagesSeen: new Set(),
  ownMetasSeen: new Set(),
  rootFileSeen: false,
  finerSeen: new Set(),
  ownTitlesSeen: new Set(),
  sectionTitlesSeen: new Set(),
  sectionDescriptionsSeen: new Set(),
  refusalsTelling: [],
  refusalsCompared: 0,
})
const mayOpen = (role: Role, route: string) => role !== null && env.decide(route, { username: role, groups: seededGroupsOf(role) }) === 'allow'
/** Whether a role may read a section's marked page. */
export const mayRead = (role: Role, section: MarkedSection) => mayOpen(role, routeOfFile(env.marked[section].page))
// A folder's own words are for readers of what it holds: the first prefix rule over it, else the
// fallback. Stated here from the rules themselves, apart from the code it checks (lib/access/sectionPaths.ts folderWordsPath).
const folderRequirement = (folder: string) => env.access.rules.find((rule) => rule.match === 'prefix' && (folder === rule.path || folder.startsWith(`${rule.path}/`)))?.require ?? env.access.fallback
/** Whether a role may open a section's folder, whose `_meta` words (its separators, menus and links) are its readers'. */
const mayOpenFolder = (role: Role, section: MarkedSection) => role !== null && passes(env.access, folderRequirement(`/docs/${section}`), { username: role, groups: seededGroupsOf(role) })
/**
 * For each section none of the base roles but admin reads (one an admin added to access.config.ts),
 * the first user its list names: a demo user of the audit's Cognito (scripts/cognito/seed.ts
 * demoUsers), so the section is audited from its own reader's side too.
 */
const SECTION_READERS = env.access.sections.flatMap((section) => {
  // Its folder's readers, not its marked page's, which a rule may open wider.
  if (BASE_ROLES.some((role) => role !== 'admin' && mayOpenFolder(role, section.id))) return []
  // Full-access users are merged into every list: the section's own reader is one of the rest.
  const full = shippedAccess.members[FULL_ACCESS_LIST]?.users ?? new Set<string>()
  const reader = [...(shippedAccess.members[section.readers]?.users ?? [])].find((username) => !full.has(username))
  return reader ? [reader] : []
})
export const ROLES: readonly Role[] = [...BASE_ROLES, ...SECTION_READERS]
/**
 * The access lists' names and the names they hold: none may reach a reader but the reader's own
 * username (the marker groups have no members). The full-access list's name is the product's own,
 * in its code (lib/access/types.ts), not an admin's.
 */
const usernames = [...Object.keys(env.access.members).filter((list) => list !== FULL_ACCESS_LIST), ...Object.values(env.markers.usernames), ...Object.values(env.markers.groups), ...SEEDED_USERS, ...SECTION_READERS]
/** Whether a role may fetch a section's marked image (an image follows its own path's rule). */
const mayFetchImage = (role: Role, section: MarkedSection) => mayOpen(role, publicFileRoute(env.marked[section].image.slice('public/'.length)))
const mayFetchRootFile = (role: Role) => mayOpen(role, publicFileRoute(MARKED_ROOT_FILE.slice('public/'.length)))
const finerMarks = Object.keys(env.finerMarked) as FinerMark[]
const mayReadFiner = (role: Role, mark: FinerMark) => mayOpen(role, routeOfFile(env.finerMarked[mark]))
const pageRoutes = pages.map((page) => page.route)
const sectionPages = (section: MarkedSection) => pageRoutes.filter((route) => inSection(route, section))
/** A section's title names it to each reader who may open a page of it (a folder an admin gave them, say). */
const mayKnowSection = (role: Role, section: MarkedSection) => sectionPages(section).some((route) => mayOpen(role, route))
/** Its description speaks for the whole section: its folder's readers', or one who may open every page of it. */
const readsWholeSection = (role: Role, section: MarkedSection) => mayOpenFolder(role, section) || (role !== null && sectionPages(section).every((route) => mayOpen(role, route)))
/** The source text of the pages a role may open. */
const proseOf = (role: Role) => [...sources].filter(([route]) => mayOpen(role, route)).map(([, source]) => source).join('\n')

/** The cookie a role's browser sends (none for an anonymous visitor). */
const cookieOf = async (role: Role) => (role === null ? undefined : amplifyCookieHeader(role, await signInIdToken(env.cognitoUrl, role, PASSWORD)))
/** What the scan of a role's responses needs: who it is and the paths it may know. */
const contextOf = (role: Role) => ({ role, usernames, sections: SECTIONS.map((section) => section.id), mayKnowPath: knownPaths(pageRoutes, (route) => mayOpen(role, route)) })

/**
 * A made-up path beside the rule that governs `route`: the rule's own last segment made up (the
 * route's, where the fallback governs it), the rest kept. A refusal must answer `route` as it
 * answers this path, which no rule names: "no access" where a made-up path is "not found" would
 * confirm that a section, folder or page is there.
 */
function madeUpBeside(route: string): string {
  const governing = governingRuleOf(env.access, route)
  const named = governing.kind === 'rule' && governing.rule.path !== '/' ? governing.rule.path : route
  // An exact rule on a folder's own page, inside a prefix rule on that folder: beside it is inside the folder.
  if (governing.kind === 'rule' && governing.rule.match === 'exact' && env.access.rules.some((rule) => rule.match === 'prefix' && rule.path === named)) return `${named}/zz-made-up-${named.length}`
  return `${named.slice(0, named.lastIndexOf('/'))}/zz-made-up-${named.length}${route.slice(named.length)}`
}

/** What a navigation's answer tells: its status and where it sends the reader (the address without its query, which echoes the request). */
const answerOf = (received: Received) => {
  const location = received.headers.find(([name]) => name === 'location')?.[1]
  return `${received.status}${location === undefined ? '' : ` to ${new URL(location, 'http://site').pathname}`}`
}

/**
 * What `role` can read, requesting each of `keys` from the server at `siteUrl`. A key anonymous
 * could not fetch is protected: the anonymous pass goes first and fills `protectedKeys`.
 */
export async function filesReport(siteUrl: string, keys: readonly string[], role: Role, protectedKeys: Set<string>): Promise<RoleReport> {
  const cookie = await cookieOf(role)
  const report = emptyReport(role)
  const scan = scannerOf(role, report)
  // A page is also asked for as a browser opens it (a navigation, which the authority answers with
  // a redirect where a script's fetch gets a status), so the redirects' addresses are scanned too.
  const requests = keys.flatMap((key) => (key.endsWith('.html') ? [{ key }, { key: normalisePath(key) ?? key, navigate: true }] : [{ key }]))
  for (const { key, navigate } of requests) {
    let received: Received
    if (navigate) {
      received = await openAsBrowser(siteUrl + key, cookie)
      if (received.status !== 200) {
        const beside = madeUpBeside(key)
        const [real, madeUp] = [answerOf(received), answerOf(await openAsBrowser(siteUrl + beside, cookie))]
        report.refusalsCompared++
        if (real !== madeUp) report.refusalsTelling.push(`${key}: ${real}, where ${beside} gets ${madeUp}`)
      }
    } else {
      received = await receivedOf(await fetch(siteUrl + key, { redirect: 'manual', headers: cookie ? { cookie } : {} }))
      if (role === null && received.status !== 200) protectedKeys.add(key)
      // The counts are the files'.
      if (received.status !== 200) report.denied++
      else report.allowed++
    }
    // Every header and body is scanned, whatever the status.
    scan(navigate ? `${key} (navigation)` : key, responseText(key, received.headers, received.body), { status: received.status, cacheControl: received.cacheControl, protected: !navigate && (protectedKeys.has(key) || PER_READER.includes(key)) })
  }
  return report
}

/** A fetch's answer as the audit reads it. */
async function receivedOf(response: Response): Promise<Received> {
  return { status: response.status, headers: [...response.headers], cacheControl: response.headers.get('cache-control'), body: readBody(Buffer.from(await response.arrayBuffer())) }
}

/** Reads one answer `role` received whole, `label` naming it, and adds what it tells them that it should not (or may) to `report`. */
function scannerOf(role: Role, report: RoleReport) {
  const prose = proseOf(role)
  const context = contextOf(role)
  return (label: string, body: string, served: { status: number; cacheControl: string | null; protected: boolean }) => {
    scanServed({ key: label, body, ...served }, context, report)
    inspect(label, body, role, prose, context.mayKnowPath, report)
  }
}

/** What `role`'s AI tool can be told by the /mcp of the server at `siteUrl`: every answer, scanned as a served file is. */
async function toolReport(siteUrl: string, role: Role): Promise<RoleReport> {
  const tool = emptyReport(role)
  const scan = scannerOf(role, tool)
  const signIn: { url: string; response: Response }[] = []
  for (const answer of await mcpAnswers(siteUrl, role, (url, response) => signIn.push({ url, response }))) {
    // The client hides HTTP headers; e2e/mcpServer.test.ts checks that every /mcp answer is no-store.
    scan(`${MCP_PATH} ${answer.key}`, answer.body, { status: 200, cacheControl: null, protected: false })
    if (answer.isError) tool.denied++
    else tool.allowed++
  }
  // The tool's sign-in pages (the authorization server's redirects, the consent's interaction and
  // decision) are what the site tells the reader's browser for it: scanned whole, not counted as answers.
  for (const { url, response } of signIn) {
    const key = `sign-in ${new URL(url).pathname}`
    const received = await receivedOf(response)
    scan(key, responseText(key, received.headers, received.body), { status: received.status, cacheControl: received.cacheControl, protected: true })
  }
  return tool
}

/** What one readable body holds that `role` may not know, added to `report` (and what it may know, to prove the search finds it). */
function inspect(key: string, body: string, role: Role, prose: string, mayKnowPath: (path: string) => boolean, report: RoleReport) {
  for (const section of sections) {
    const found = body.includes(env.markers.body[section]) || body.includes(env.markers.title[section])
    if (!found) continue
    if (mayRead(role, section)) report.ownMarkersSeen.add(section)
    else report.markersLeaked.push(`${section} in ${key}`)
  }
  for (const section of sections) {
    if (!body.includes(env.markers.image[section])) continue
    if (mayFetchImage(role, section)) report.ownImagesSeen.add(section)
    else report.markersLeaked.push(`${section}'s image in ${key}`)
  }
  // A writer's comment is shown to no reader, whatever they may open.
  for (const section of sections) if (body.includes(env.markers.comment[section])) report.markersLeaked.push(`${section}'s writer's comment in ${key}`)
  for (const section of sections) {
    if (!body.includes(env.markers.meta[section])) continue
    if (mayOpenFolder(role, section)) report.ownMetasSeen.add(section)
    else report.markersLeaked.push(`${section}'s _meta in ${key}`)
  }
  for (const section of env.markers.sectionWords ? sections : []) {
    const { title, description } = env.markers.sectionWords![section]
    if (body.includes(title)) {
      if (mayKnowSection(role, section)) report.sectionTitlesSeen.add(section)
      else report.markersLeaked.push(`${section}'s section title in ${key}`)
    }
    if (body.includes(description)) {
      if (readsWholeSection(role, section)) report.sectionDescriptionsSeen.add(section)
      else report.markersLeaked.push(`${section}'s section description in ${key}`)
    }
  }
  if (body.includes(env.markers.rootFile)) {
    if (mayFetchRootFile(role)) report.rootFileSeen = true
    else report.markersLeaked.push(`the writer's file at the root of public/ in ${key}`)
  }
  for (const mark of finerMarks) {
    const { body: marker, title } = env.markers.finer[mark]
    if (!body.includes(marker) && !body.includes(title)) continue
    if (mayReadFiner(role, mark)) report.finerSeen.add(mark)
    else report.finerLeaked.push(`${mark} in ${key}`)
  }
  // Page maps are proven by the planted title markers above, which no prose holds.
  const { seen, leaked } = titlesIn(body, titles, { mayOpen: (route) => mayOpen(role, route), mayKnowPath, prose })
  for (const route of seen) report.ownTitlesSeen.add(route.split('/')[2])
  for (const title of leaked) report.titlesLeaked.push(`${title} in ${key}`)
}

/**
 * Everything a role's AI tool can be told: who it is, its page tree (whole and per section), every
 * page of the build by route, and searches for every marker, distinctive title and section. An
 * anonymous tool gets the server's refusal.
 */
async function mcpAnswers(siteUrl: string, role: Role, seen: SeenResponse): Promise<McpAnswer[]> {
  if (role === null) {
    const response = await fetch(siteUrl + MCP_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'quote' } } }),
    })
    expect(response.status).toBe(401)
    return [{ key: 'tools/call without a token', isError: true, body: await response.text(), structured: undefined, text: '' }]
  }
  // The tool signs in as its reader through the site's own sign-in and consent (no pasted token).
  const tool = await signToolIn(withCookies(role, 'allow', undefined, seen), { siteUrl })
  try {
    const markerQueries = [
      ...sections.flatMap((section) => [env.markers.body[section], env.markers.title[section], env.markers.image[section], env.markers.comment[section]]),
      ...finerMarks.flatMap((mark) => [env.markers.finer[mark].body, env.markers.finer[mark].title]),
      ...Object.values(env.markers.sectionWords ?? {}).flatMap(({ title, description }) => [title, description]),
    ]
    const queries = [...markerQueries, ...titles.keys(), ...env.access.sections.map((section) => section.title), ...usernames]
    // What every tool is told before it calls one (its instructions, the tools' descriptions) is an answer too.
    const answers: McpAnswer[] = [await tool.describe(), await tool.call('whoami'), await tool.call('list_pages')]
    for (const section of SECTIONS) answers.push(await tool.call('list_pages', { section: section.id }))
    for (const route of pageRoutes) answers.push(await tool.call('get_page', { path: route }))
    for (const query of queries) answers.push(await tool.call('search_docs', { query, limit: 25 }))
    return answers
  } finally {
    await tool.close()
  }
}

/** A server over the audit build: its URL, and every key to request of it (known once the test's own setup has run). */
export interface AuditTarget {
  siteUrl: string
  keys(): Promise<string[]>
}

/** The leak audit's tests of the server `target()` names, as a describe block titled by `name`. */
export function describeLeakAudit(name: string, target: () => AuditTarget) {
  describe(`leak audit of ${name}`, () => {
    const reports: RoleReport[] = []
    /** The same findings in what each role's AI tool receives from /mcp. */
    const mcpReports: RoleReport[] = []
    /** What anonymous could not fetch: the protected responses. */
    const protectedKeys = new Set<string>()
    let files: string[] = []

    beforeAll(async () => {
      const { siteUrl, keys } = target()
      files = await keys()
      for (const role of ROLES) {
        // The reader's AI tool first, so the reader's connections (a generated file) name it.
        mcpReports.push(await toolReport(siteUrl, role))
        reports.push(await filesReport(siteUrl, [...GENERATED, ...files], role, protectedKeys))
      }
      const table = (title: string, rows: RoleReport[]) =>
        [
          title,
          'role        allowed  denied  markers leaked  finer-rule content leaked  titles leaked  usernames readable  foreign routes readable  shared-cacheable protected  browser-stored protected  telling refusals',
          ...rows.map((r) =>
            [
              r.role.padEnd(10),
              String(r.allowed).padStart(7),
              String(r.denied).padStart(6),
              String(r.markersLeaked.length).padStart(14),
              String(r.finerLeaked.length).padStart(25),
              String(r.titlesLeaked.length).padStart(13),
              String(r.usernamesLeaked.length).padStart(18),
              String(r.routesLeaked.length).padStart(23),
              String(r.sharedCacheable.length).padStart(26),
              String(r.storedByBrowser.length).padStart(25),
              String(r.refusalsTelling.length).padStart(16),
            ].join('  ')
          ),
        ].join('\n')
      console.log(
        [
          table(`Leak audit of ${name}: ${files.length} files, ${titles.size} distinctive page titles`, reports),
          table(`AI tools (${MCP_PATH}): each role's tool answers (allowed = answers, denied = refusals)`, mcpReports),
        ].join('\n\n')
      )
    }, 600000)

    /** Each role's findings in the served files, and in its AI tool's answers. */
    const KINDS = ['files', 'AI tool'] as const
    const reportOf = (kind: (typeof KINDS)[number], role: Role) => (kind === 'files' ? reports : mcpReports).find((r) => r.role === (role ?? 'anonymous'))!
    const eachKindAndRole = KINDS.flatMap((kind) => ROLES.map((role) => [kind, role ?? 'anonymous', role] as const))

    test.each(eachKindAndRole)('%s: %s receives no marker of a section it may not read', (kind, _name, role) => {
      expect(reportOf(kind, role).markersLeaked).toEqual([])
    })

    test.each(eachKindAndRole)('%s: %s receives no content of a page that a rule finer than its section keeps from it', (kind, _name, role) => {
      expect(reportOf(kind, role).finerLeaked).toEqual([])
    })

    test('every role that may open a finer rule\'s page receives its content, in files and through its AI tool (so 0 finer leaks means something)', () => {
      for (const report of [...reports, ...mcpReports]) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        expect([report.role, [...report.finerSeen].sort()]).toEqual([report.role, finerMarks.filter((mark) => mayReadFiner(role, mark)).sort()])
      }
      // The profile proves something only if each finer rule changes who reads its page: the roles
      // that may read it are not those that may open its section's entry page.
      for (const mark of finerMarks) {
        const section = env.sectionOf(routeOfFile(env.finerMarked[mark]))
        const readers = ROLES.filter((role) => mayReadFiner(role, mark))
        expect([mark, readers]).not.toEqual([mark, ROLES.filter((role) => mayOpen(role, section.entry))])
      }
    })

    test.each(eachKindAndRole)('%s: %s can read no title of a page it may not open', (kind, _name, role) => {
      expect(reportOf(kind, role).titlesLeaked).toEqual([])
    })

    test.each(eachKindAndRole)('%s: %s can read no username but its own', (kind, _name, role) => {
      expect(reportOf(kind, role).usernamesLeaked).toEqual([])
    })

    test.each(eachKindAndRole)('%s: %s can read no route of a section it may not open', (kind, _name, role) => {
      expect(reportOf(kind, role).routesLeaked).toEqual([])
    })

    test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s gets no protected response that a shared cache may keep', (_name, role) => {
      expect(reportOf('files', role).sharedCacheable).toEqual([])
    })

    // The next person on a shared computer opens the browser after a sign-out: its cache must hold
    // nothing of the docs (the site's content-hashed code, the same for every reader, aside).
    test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s gets no protected file, but build code, that the browser may keep past a sign-out', (_name, role) => {
      expect(reportOf('files', role).storedByBrowser).toEqual([])
    })

    // The sign-in page is anyone's, and draws the site's logo and icon: from the site's code, never
    // from a writer's file, which reaches only the readers its own path's rule names.
    test("anonymous receives no writer's file under public/ that the rules do not open to anyone", () => {
      const fetched = files.filter((key) => !protectedKeys.has(key))
      expect(fetched.length).toBeGreaterThan(0)
      expect(fetched.filter((key) => env.publicKeys.includes(key) && env.decide(publicFileRoute(key.slice(1)), null) !== 'allow')).toEqual([])
    })

    // A refused page is answered as a made-up path beside its rule is: the answer names no rule's path.
    test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s is answered for each page it may not open as for a made-up path beside its rule', (_name, role) => {
      expect(reportOf('files', role).refusalsTelling).toEqual([])
    })

    test('every signed-in role but admin is refused some page, and so compared (0 telling refusals means something)', () => {
      for (const report of reports.filter((r) => r.role !== 'anonymous' && r.role !== 'admin')) expect([report.role, report.refusalsCompared > 0]).toEqual([report.role, true])
    })

    test('every role\'s AI tool finds the markers, titles and routes of what it may open (so 0 leaks through /mcp means something)', () => {
      for (const report of mcpReports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        expect([report.role, [...report.ownMarkersSeen].sort()]).toEqual([report.role, sections.filter((section) => mayRead(role, section)).sort()])
        const titled = new Set([...titles.values()].flat().filter((route) => mayOpen(role, route)).map((route) => route.split('/')[2]))
        expect([report.role, [...report.ownTitlesSeen].sort()]).toEqual([report.role, [...titled].sort()])
        const opens = SECTIONS.map((s) => s.id).filter((id) => pageRoutes.some((route) => inSection(route, id) && mayOpen(role, route)))
        expect([report.role, [...report.ownRoutesSeen].sort()]).toEqual([report.role, opens.sort()])
      }
    })

    test('every role finds the routes of every section it may open a page of (so 0 foreign routes means something), and its own name in its view', () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        const opens = SECTIONS.map((s) => s.id).filter((id) => pageRoutes.some((route) => inSection(route, id) && mayOpen(role, route)))
        expect([report.role, [...report.ownRoutesSeen].sort()]).toEqual([report.role, opens.sort()])
      }
      expect(protectedKeys.size).toBeGreaterThan(files.length / 2)
    })

    test('every role receives the markers of every section it may read (an audit that blocks everything fails)', () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        const expected = sections.filter((section) => mayRead(role, section))
        expect([...report.ownMarkersSeen].sort()).toEqual(expected.sort())
      }
      expect(reports.find((r) => r.role === 'admin')!.ownMarkersSeen.size).toBe(sections.length)
    })

    test("every role receives the _meta marker of every section folder it may open (so 0 leaks of a folder's words means something)", () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        expect([report.role, [...report.ownMetasSeen].sort()]).toEqual([report.role, sections.filter((section) => mayOpenFolder(role, section)).sort()])
      }
    })

    // Where the profile marks the sections' words (not the one whose browser tests read the shipped titles).
    ;(env.markers.sectionWords ? test : test.skip)("every role receives the marked title of each section it may open a page of, and the marked description of each it reads whole", () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        expect([report.role, [...report.sectionTitlesSeen].sort()]).toEqual([report.role, sections.filter((section) => mayKnowSection(role, section)).sort()])
        expect([report.role, [...report.sectionDescriptionsSeen].sort()]).toEqual([report.role, sections.filter((section) => readsWholeSection(role, section)).sort()])
      }
    })

    test('every role receives the image marker of every section image it may fetch', () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        expect([report.role, [...report.ownImagesSeen].sort()]).toEqual([report.role, sections.filter((section) => mayFetchImage(role, section)).sort()])
      }
    })

    test("the writer's file at the root of public/ reaches exactly the roles the rules give it (the fallback's)", () => {
      const expected = reports.map((report) => [report.role, mayFetchRootFile(report.role === 'anonymous' ? null : (report.role as Role))])
      expect(reports.map((report) => [report.role, report.rootFileSeen])).toEqual(expected)
      expect(expected.filter(([, may]) => may).length).toBeGreaterThan(0)
    })

    test('the title search finds each section\'s titles where they may be read (so 0 title leaks means something)', () => {
      for (const report of reports) {
        const role = report.role === 'anonymous' ? null : (report.role as Role)
        const expected = new Set([...titles.values()].flat().filter((route) => mayOpen(role, route)).map((route) => route.split('/')[2]))
        expect([report.role, [...report.ownTitlesSeen].sort()]).toEqual([report.role, [...expected].sort()])
      }
      expect([...reports.find((r) => r.role === 'admin')!.ownTitlesSeen].sort()).toEqual([...sections].sort())
    })

    test('anonymous readers get only what the sign-in page needs', () => {
      const anonymous = reports.find((r) => r.role === 'anonymous')!
      expect(anonymous.allowed).toBeGreaterThan(5)
      expect(anonymous.allowed).toBeLessThan(files.length / 4)
    })
  })
}
