/** What the accessibility browser tests share: the views they look in, and axe-core's verdict. */
import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signInThroughForm } from './browser'

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules the site is held to (issue #48). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export type ColourMode = 'light' | 'dark'
export interface View {
  mode: ColourMode
  width: number
}
/** A desktop and a phone width, each looked at in both colour modes. */
export const WIDTHS = [1280, 390]
export const MODES: ColourMode[] = ['light', 'dark']
export const viewName = (view: View) => `${view.mode}, ${view.width}px`

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/** A reader's signed-in cookies, once per reader for the whole file (`null`: no one signed in). */
export async function readerState(browser: Browser, username: string | null): Promise<StorageState | undefined> {
  if (!username) return undefined
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await signInThroughForm(page, username)
    return await context.storageState()
  } finally {
    await context.close()
  }
}

/**
 * A context at `width` whose colour mode follows the system's, as the theme does when set to
 * "System": `showMode` then switches a drawn page between the modes, so each page kind is loaded
 * once per width rather than once per view.
 */
export async function contextAt(browser: Browser, width: number, state?: StorageState): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: MODES[0], storageState: state })
  await context.addInitScript(() => localStorage.setItem('theme', 'system'))
  return context
}

/** Switches the system's colour mode and waits until the theme has drawn the page in it. */
export async function showMode(page: Page, mode: ColourMode): Promise<void> {
  await page.emulateMedia({ colorScheme: mode })
  await page.waitForFunction((wanted) => document.documentElement.classList.contains(wanted), mode, { timeout: 5000 })
}

/** One violation as a reader of the failure needs it: the rule, where, and which element. */
export interface Finding {
  rule: string
  impact: string
  page: string
  view: string
  target: string
  summary: string
}
export const describeFinding = (finding: Finding) => `${finding.rule} (${finding.impact}) on ${finding.page} [${finding.view}] at ${finding.target}: ${finding.summary}`

/**
 * Waits for the CSS transitions running now to end (a button fading back from its busy state after
 * a failed sign-in): axe reads colours as drawn, and a colour half way through one is none the page
 * keeps. Only transitions: an animation may repeat for ever (a spinner).
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation instanceof CSSTransition).map((animation) => animation.finished.catch(() => undefined))))
}

/** axe-core's WCAG 2.2 A/AA violations on what `page` shows now, one finding per element. */
export async function axeFindings(page: Page, pageName: string, view: View): Promise<Finding[]> {
  await transitionsEnded(page)
  // axe.run in the page itself ("legacy mode"), not runPartial with finishRun in a blank page the
  // builder opens per call, which took most of each check's time. Legacy mode still checks
  // same-origin frames, and the site's policy (default-src 'self') loads no other. Only violations
  // are read, so passes are not collected.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      page: pageName,
      view: viewName(view),
      target: node.target.map(String).join(' '),
      summary: node.failureSummary?.split('\n').slice(0, 2).join(' ') ?? violation.help,
    }))
  )
}

/** With A11Y_REPORT set, findings are appended there as JSON lines (the before/after counts). */
export function recordFindings(findings: Finding[], page: string, view: View): void {
  const file = process.env.A11Y_REPORT
  if (file) fs.appendFileSync(file, JSON.stringify({ page, view: viewName(view), count: findings.length, rules: [...new Set(findings.map((f) => f.rule))] }) + '\n')
}
