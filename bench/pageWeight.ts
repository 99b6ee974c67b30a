/**
 * Page weight from the build output: each page's first-load JavaScript, gzip -9, and the size of
 * out/. A page's first load is every script its exported HTML loads (out/<page>.html), as a
 * browser with modules loads them: the `nomodule` polyfills are left out, which such a browser
 * skips. Chunks a page imports on demand or when the browser is idle (the sign-in flows, the
 * Authenticator's other screens, the progress bar) are not part of it.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Figure } from './table'
import { sitePaths } from '../pipeline/steps/paths'
import { listFiles } from '../pipeline/files'

/** The sign-in page's first-load JavaScript may be at most this (issue #31). */
export const SIGN_IN_BUDGET_KB = 200

/** The exported HTML file of a route: `/` is index.html, `/docs/x` docs/x.html. */
function htmlOf(out: string, route: string): string {
  return path.join(out, route === '/' ? 'index.html' : `${route.replace(/^\//, '')}.html`)
}

/** The scripts a page's HTML loads in a browser with modules, as paths under out/. */
export function firstLoadScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((match) => match[1])
    .filter((attributes) => !/\snomodule\b/.test(attributes))
    .map((attributes) => /\ssrc="([^"]+)"/.exec(attributes)?.[1])
    .filter((src): src is string => src !== undefined && src.startsWith('/'))
    // As the server reads the path: the docs route's own chunk is `pages/%5B%5B...slug%5D%5D-….js`.
    .map((src) => decodeURIComponent(src))
}

/** Bytes of a route's first-load JavaScript, each script gzip -9 (see above). */
export function firstLoadJs(root: string, route: string): number {
  const { out } = sitePaths(root)
  const file = htmlOf(out, route)
  if (!fs.existsSync(file)) throw new Error(`no exported page ${path.relative(root, file)} for ${route}`)
  const scripts = firstLoadScripts(fs.readFileSync(file, 'utf8'))
  if (!scripts.length) throw new Error(`${path.relative(root, file)} loads no scripts`)
  let bytes = 0
  for (const script of scripts) bytes += zlib.gzipSync(fs.readFileSync(path.join(out, script)), { level: 9 }).length
  return bytes
}

/** Bytes of every file under `dir`. */
export function folderBytes(dir: string): number {
  return listFiles(dir).reduce((sum, key) => sum + fs.statSync(path.join(dir, key)).size, 0)
}

export function pageWeightFigures(root = '.', bareNextraBytes?: number): Figure[] {
  const method = "gzip -9 of each script the page's exported HTML loads (not the nomodule polyfills)"
  const routes: Array<[string, string]> = [
    ['docs page (/docs/leads/endpoints/create-quote)', '/docs/leads/endpoints/create-quote'],
    ['home page (/)', '/'],
    ['sign-in (/login)', '/login'],
  ]
  const kB = (bytes: number) => +(bytes / 1024).toFixed(1)
  const figures: Figure[] = routes.map(([name, route]) => ({ group: 'page weight', name: `first-load JS, ${name}`, value: kB(firstLoadJs(root, route)), unit: 'kB', method }))
  const signIn = kB(firstLoadJs(root, '/login'))
  figures.push({ group: 'page weight', name: `sign-in under its budget (${SIGN_IN_BUDGET_KB} kB)`, value: +(SIGN_IN_BUDGET_KB - signIn).toFixed(1), unit: 'kB', method: `${SIGN_IN_BUDGET_KB} kB less the sign-in figure above; negative is over budget` })
  process.stderr.write(
    signIn <= SIGN_IN_BUDGET_KB
      ? `bench: sign-in first-load JS ${signIn} kB, within its ${SIGN_IN_BUDGET_KB} kB budget\n`
      : `bench: OVER BUDGET: sign-in first-load JS ${signIn} kB, budget ${SIGN_IN_BUDGET_KB} kB\n`
  )
  if (bareNextraBytes !== undefined) {
    figures.push({ group: 'page weight', name: 'first-load JS, bare Nextra 3 docs page (reference)', value: kB(bareNextraBytes), unit: 'kB', method: `${method}; bench/bareNextra.ts` })
    const docs = firstLoadJs(root, '/docs/leads/endpoints/create-quote')
    figures.push({ group: 'page weight', name: 'docs page above bare Nextra (budget 25 kB)', value: kB(docs - bareNextraBytes), unit: 'kB', method: 'difference of the two figures above' })
  }
  const { out } = sitePaths(root)
  const total = folderBytes(out)
  figures.push({ group: 'page weight', name: 'total size of out/', value: +(total / 1024 / 1024).toFixed(2), unit: 'MB', method: 'sum of file sizes' })
  return figures
}
