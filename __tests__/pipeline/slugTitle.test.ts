/**
 * @jest-environment node
 *
 * A page or folder with no writer's title is titled from its name by one rule
 * (lib/navigation/slugTitle.ts), wherever a reader or a writer meets that title: the build's page
 * map (an untitled page), the browser's sidebar (that page, and a folder whose writer's title
 * belongs to a page the reader may not open), the AI tools' page tree, and the section the build
 * suggests declaring for an undeclared folder (pipeline/steps/checkContent.ts).
 */
import type { PageMapItem } from 'nextra'
import { scanContent } from '../../pipeline/content/contentSource'
import { pageTree } from '../../mcp/pageTree'
import { filterPageMap } from '../../lib/navigation/filterPageMap'
import { isFolder, isPage, type RawFolder, type RawItem } from '../../lib/navigation/shapePageMap'
import { UndeclaredSectionError } from '../../pipeline/steps/checkContent'
import { normalizeWithNextra } from '../components/helpers/pageMaps'
import { tempSite } from '../fixtures/tempSite'

/** The title the AI tools' page tree gives a folder `slug` that no `_meta` titles. */
const treeTitle = (slug: string) => pageTree([{ items: [{ name: slug, route: `/docs/${slug}`, children: [{ name: 'intro', route: `/docs/${slug}/intro`, frontMatter: { title: 'Intro' } }] }], order: {} }])[0].title

/** The title the build suggests for an undeclared folder `slug` under content/docs/. */
const suggestedTitle = (slug: string) => /title: '([^']*)'/.exec(new UndeclaredSectionError(`content/docs/${slug}`, 'folder', ['leads']).message)?.[1]

test.each([
  ['getting-started', 'Getting Started'],
  ['api_v2', 'Api V2'],
  ['guide-to-the-api', 'Guide To The Api'],
  ['faq', 'Faq'],
])('a folder %s is titled %s in the page tree and in the suggested section alike', (slug, title) => {
  expect([treeTitle(slug), suggestedTitle(slug)]).toEqual([title, title])
})

/** The level of `items` at `route`. */
function levelAt(items: readonly RawItem[], route: string): RawItem[] {
  const folder = items.find((item): item is RawFolder => isFolder(item) && item.route === route)
  if (folder) return folder.children
  for (const item of items) if (isFolder(item) && route.startsWith(`${item.route}/`)) return levelAt(item.children, route)
  throw new Error(`no folder ${route}`)
}

test('a page and a folder named api_v2 with no title are both "Api V2": in the build\'s page map, the browser\'s sidebar and the AI tools\' page tree', () => {
  // The build's page map: an untitled page, titled by the content source.
  const root = tempSite('slug-title-', { 'content/docs/leads/api_v2.mdx': '# Version two\n\nNo front matter.\n', 'content/docs/leads/intro.mdx': '---\ntitle: Intro\n---\n\n# Intro\n' })
  const leads = levelAt(scanContent(root).pageMap(), '/docs/leads')
  const builtPage = leads.find((item) => isPage(item) && item.name === 'api_v2')
  expect(builtPage && isPage(builtPage) ? builtPage.frontMatter?.sidebarTitle : undefined).toBe('Api V2')

  // The browser's sidebar (Nextra's normalizePages on what the theme is given): that page, and a
  // folder api_v2 whose index page (titled by its writer) the reader may not open.
  const sidebarPage = normalizeWithNextra(leads, '/docs/leads/intro').docsDirectories.find((item) => item.route === '/docs/leads/api_v2')?.title
  const withHiddenIndex: RawItem[] = [
    {
      name: 'docs',
      route: '/docs',
      children: [
        { data: { api_v2: 'Version two, internal' } },
        { name: 'api_v2', route: '/docs/api_v2', children: [{ name: 'intro', route: '/docs/api_v2/intro', frontMatter: { title: 'Intro' } }] },
        { name: 'api_v2', route: '/docs/api_v2', frontMatter: { title: 'Version two, internal' } },
      ],
    },
  ]
  const filtered = filterPageMap(withHiddenIndex as unknown as PageMapItem[], (route) => route !== '/docs/api_v2') as unknown as RawItem[]
  const sidebarFolder = normalizeWithNextra(levelAt(filtered, '/docs'), '/docs/api_v2/intro').docsDirectories.find((item) => item.route === '/docs/api_v2')?.title

  // The AI tools' page tree: the built page, and an untitled folder.
  const tree = pageTree([{ items: [{ name: 'leads', route: '/docs/leads', children: leads }, { name: 'api_v2', route: '/docs/api_v2', children: [{ name: 'intro', route: '/docs/api_v2/intro', frontMatter: { title: 'Intro' } }] }], order: {} }])
  const treePage = tree.find((node) => node.route === '/docs/leads')?.children?.find((node) => node.route === '/docs/leads/api_v2')?.title
  const treeFolder = tree.find((node) => node.route === '/docs/api_v2')?.title

  expect({ sidebarPage, sidebarFolder, treePage, treeFolder }).toEqual({ sidebarPage: 'Api V2', sidebarFolder: 'Api V2', treePage: 'Api V2', treeFolder: 'Api V2' })
})
