/**
 * Page weight from the build output: first-load JS (gzip) per route, as `next build` counts it
 * (the page's files plus _app's, from .next/build-manifest.json), and the size of out/.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Figure } from './table'
import { sitePaths } from '../pipeline/steps/paths'
import { listFiles } from '../pipeline/steps/siteFiles'

export function firstLoadJs(root: string, route: string): number {
  const { next } = sitePaths(root)
  const manifest = JSON.parse(fs.readFileSync(path.join(next, 'build-manifest.json'), 'utf8')) as { pages: Record<string, string[]> }
  const files = new Set([...(manifest.pages['/_app'] ?? []), ...(manifest.pages[route] ?? [])].filter((file) => file.endsWith('.js')))
  if (!manifest.pages[route]) throw new Error(`no route ${route} in the build manifest`)
  let bytes = 0
  for (const file of files) bytes += zlib.gzipSync(fs.readFileSync(path.join(next, file))).length
  return bytes
}

export function pageWeightFigures(root = '.', bareNextraBytes?: number): Figure[] {
  const method = 'gzip of the route\'s JS files + _app\'s (build-manifest.json)'
  const routes: Array<[string, string]> = [
    ['docs page (/docs/leads/endpoints/create-quote)', '/docs/leads/endpoints/create-quote'],
    ['home page (/)', '/'],
    ['sign-in (/login)', '/login'],
  ]
  const figures: Figure[] = routes.map(([name, route]) => ({ group: 'page weight', name: `first-load JS, ${name}`, value: +(firstLoadJs(root, route) / 1024).toFixed(1), unit: 'kB', method }))
  if (bareNextraBytes !== undefined) {
    figures.push({ group: 'page weight', name: 'first-load JS, bare Nextra 3 docs page (reference)', value: +(bareNextraBytes / 1024).toFixed(1), unit: 'kB', method: `${method}; bench/bareNextra.ts` })
    const docs = firstLoadJs(root, '/docs/leads/endpoints/create-quote')
    figures.push({ group: 'page weight', name: 'docs page above bare Nextra (budget 25 kB)', value: +((docs - bareNextraBytes) / 1024).toFixed(1), unit: 'kB', method: 'difference of the two figures above' })
  }
  const { out } = sitePaths(root)
  const total = listFiles(out).reduce((sum, key) => sum + fs.statSync(path.join(out, key)).size, 0)
  figures.push({ group: 'page weight', name: 'total size of out/', value: +(total / 1024 / 1024).toFixed(2), unit: 'MB', method: 'sum of file sizes' })
  return figures
}
