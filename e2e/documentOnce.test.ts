/**
 * A docs page carries its props once: its HTML is the page rendered, and its data file
 * (`_next/data/<build>/<route>.json`) the props, from which the browser hydrates the first page it
 * opens and moves to every other (lib/render/propsOnce.ts). Before, the HTML held the body twice
 * (rendered, and in `__NEXT_DATA__`), and its page map and table of contents once more than the
 * data file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { listFiles } from '../pipeline/files'
import type { TreeNode } from '../lib/render/pageDocument'
import { unpackDocument } from '../lib/render/packedDocument'
import type { DocsPageProps } from '../lib/render/propsFiles'
import { freshPagePerTest, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

jest.setTimeout(120_000)

const { outDir, siteUrl } = siteEnv()

/** Text that both files write as it is (no character HTML or JSON would escape). */
const PLAIN = /^[A-Za-z0-9 ,.;:()-]{40,}$/

/** The text of each paragraph of the body that is one text (React writes several with comments between). */
function paragraphs(nodes: readonly TreeNode[], found: string[] = []): string[] {
  for (const node of nodes) {
    if (node.type !== 'element') continue
    const [only, ...more] = node.children
    if (node.tagName === 'p' && only?.type === 'text' && !more.length) found.push(only.value)
    else paragraphs(node.children, found)
  }
  return found
}

const count = (text: string, part: string) => text.split(part).length - 1

test("every docs page's HTML and its data file hold the page's longest plain paragraph once each", () => {
  const dataDir = path.join(outDir, '_next/data')
  const files = listFiles(dataDir).filter((key) => key.endsWith('.json'))
  let checked = 0
  for (const key of files) {
    const data = fs.readFileSync(path.join(dataDir, key), 'utf8')
    const { doc } = (JSON.parse(data) as { pageProps: DocsPageProps }).pageProps
    const html = fs.readFileSync(path.join(outDir, doc.route === '/' ? 'index.html' : `${doc.route.slice(1)}.html`), 'utf8')
    // Not the description, which the page's head and props carry besides the body.
    const paragraph = paragraphs(unpackDocument(doc).tree)
      .filter((text) => PLAIN.test(text) && !JSON.stringify(doc.frontMatter).includes(text))
      .sort((a, b) => b.length - a.length)[0]
    if (!paragraph) continue
    expect([doc.route, count(html, paragraph), count(data, paragraph)]).toEqual([doc.route, 1, 1])
    // The page's props in its HTML: the route, nothing of the document or the page map.
    const nextData = JSON.parse(/<script id="__NEXT_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as { props: { pageProps: unknown } } | null
    expect([doc.route, nextData?.props.pageProps]).toEqual([doc.route, { route: doc.route }])
    checked++
  }
  expect(checked).toBeGreaterThan(20)
})

describe('in the browser', () => {
  const page = freshPagePerTest()

  test('the first page opened fetches its data file once and hydrates its body from it: a code block copies', async () => {
    const route = '/docs/leads/endpoints/create-quote'
    await signInThroughForm(page(), 'leads1', route)
    await page().context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteUrl })
    // Next's router also prefetches the data of the pages the page links to, its own included,
    // with the route's query (`?slug=…`): only the fetch of the file itself is the body's.
    const dataFetches: string[] = []
    page().on('request', (request) => {
      const url = new URL(request.url())
      if (!url.search) dataFetches.push(url.pathname)
    })
    // A full load, as a reader opening a link: the page's HTML has no body in its props.
    await page().goto(siteUrl + route)
    const code = page().locator('main pre').first()
    await page().getByTitle('Copy code').first().click()
    await page().waitForFunction(() => navigator.clipboard.readText().then((text) => text.length > 0))
    const copied = await page().evaluate(() => navigator.clipboard.readText())
    expect(copied.trim()).toBe((await code.innerText()).trim())
    expect(dataFetches.filter((pathname) => pathname.startsWith('/_next/data/') && pathname.endsWith(`${route}.json`))).toHaveLength(1)
  })
})
