/**
 * The settings of Nextra's theme a page may set, in its front matter or its folder's `_meta`
 * (`theme`, `display`): how its own page is laid out, never the site's chrome around it. The
 * navbar holds sign-out, the section tabs and search, and the footer the site's links, so a page
 * may not hide them (`navbar: false`, `footer: false`, `layout: 'raw'`, which draws neither).
 */
import { ContentError, locate } from './contentError'

/** A page's `theme` or `display`, in its front matter or its folder's `_meta`, that it may not give. */
export class PageSettingsError extends ContentError {
  constructor(file: string, problem: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}${problem} (docs/writing.md, "Page settings").`)
  }
}

const BOOLEAN = [true, false] as const

/** Each setting a page may give, with the values it may take (Nextra's pageThemeSchema, less the chrome). */
const PAGE_THEME: Readonly<Record<string, readonly unknown[]>> = {
  breadcrumb: BOOLEAN,
  collapsed: BOOLEAN,
  pagination: BOOLEAN,
  sidebar: BOOLEAN,
  timestamp: BOOLEAN,
  toc: BOOLEAN,
  layout: ['default', 'full'],
  typesetting: ['default', 'article'],
  navbar: [true],
  footer: [true],
}

/** Settings whose other values remove the site's chrome, and what they would remove. */
const CHROME: Readonly<Record<string, string>> = {
  navbar: "the site's navbar (sign-out, the section tabs and search)",
  footer: "the site's footer",
  layout: "the site's navbar, sidebar and footer (layout: 'raw')",
}

const DISPLAY = ['normal', 'hidden', 'children']

const shown = (values: readonly unknown[]) => values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(', ')

/** The setting that cannot stand, and why. */
export interface SettingsProblem {
  field: 'theme' | 'display'
  problem: string
}

/** Why `theme` and `display`, as a page or a `_meta` entry gives them, cannot stand; null when they can. `where` names their entry (`intro.`). */
export function pageSettingsProblem(settings: { theme?: unknown; display?: unknown }, where = ''): SettingsProblem | null {
  const { theme, display } = settings
  if (display !== undefined && !DISPLAY.includes(display as string)) return { field: 'display', problem: `${where}display is ${JSON.stringify(display)}: it is one of ${shown(DISPLAY)}` }
  const problem = themeProblem(theme, where)
  return problem ? { field: 'theme', problem } : null
}

function themeProblem(theme: unknown, where: string): string | null {
  if (theme === undefined) return null
  if (typeof theme !== 'object' || theme === null || Array.isArray(theme)) return `${where}theme is ${JSON.stringify(theme)}: it is a mapping of settings (${Object.keys(PAGE_THEME).join(', ')})`
  for (const [key, value] of Object.entries(theme)) {
    const allowed = Object.hasOwn(PAGE_THEME, key) ? PAGE_THEME[key] : undefined
    if (!allowed) return `${where}theme.${key} is not a setting a page may give: they are ${Object.keys(PAGE_THEME).join(', ')}`
    if (allowed.includes(value)) continue
    if (Object.hasOwn(CHROME, key) && (key !== 'layout' || value === 'raw')) return `${where}theme.${key}: ${JSON.stringify(value)} would remove ${CHROME[key]} from the page, and a page may not change the site's chrome; remove it`
    return `${where}theme.${key} is ${JSON.stringify(value)}: it is one of ${shown(allowed)}`
  }
  return null
}
