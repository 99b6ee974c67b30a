/**
 * @jest-environment node
 *
 * A folder with no writer's title is titled from its slug by one rule (lib/navigation/slugTitle.ts),
 * wherever a reader or a writer meets that title: the AI tools' page tree (mcp/pageTree.ts) and the
 * section the build suggests declaring for an undeclared folder (pipeline/steps/checkContent.ts).
 */
import { pageTree } from '../../mcp/pageTree'
import { UndeclaredSectionError } from '../../pipeline/steps/checkContent'

/** The title the AI tools' page tree gives a folder `slug` that no `_meta` titles. */
const treeTitle = (slug: string) => pageTree([{ items: [{ name: slug, route: `/docs/${slug}`, children: [{ name: 'intro', route: `/docs/${slug}/intro`, frontMatter: { title: 'Intro' } }] }], order: {} }])[0].title

/** The title the build suggests for an undeclared folder `slug` under content/docs/. */
const suggestedTitle = (slug: string) => /title: '([^']*)'/.exec(new UndeclaredSectionError(`content/docs/${slug}`, 'folder', ['leads']).message)?.[1]

test.each([
  ['getting-started', 'Getting Started'],
  ['api_v2', 'Api V2'],
  ['faq', 'Faq'],
])('a folder %s is titled %s in the page tree and in the suggested section alike', (slug, title) => {
  expect([treeTitle(slug), suggestedTitle(slug)]).toEqual([title, title])
})
