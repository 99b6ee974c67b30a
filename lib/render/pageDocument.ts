/**
 * A docs page as the build compiles it and the browser renders it: data only, no code.
 *
 * The content step (pipeline/compile/) turns each MDX page into a PageDocument once, outside the
 * bundler, and caches it on disk. The one docs route (pages/[[...slug]].tsx) hands it to the
 * page as props, and lib/render/renderTree.tsx turns it into React elements through a fixed map
 * of components. Nothing here is evaluated: no `eval`, no `new Function`, so the site's strict
 * Content-Security-Policy holds (runtime MDX that evaluates compiled code in the browser needs
 * 'unsafe-eval').
 */

/** A text node. */
export interface TreeText {
  type: 'text'
  value: string
}

/**
 * An element: an HTML tag (lower case, `div`, `h2`, `pre`…) or a component of the fixed map (upper
 * case, `Callout`, `Tabs.Tab`, `SectionCards`…). Properties are JSON values, named as React names
 * them (`className`, not `class`); a `style` is an object.
 */
export interface TreeElement {
  type: 'element'
  tagName: string
  properties: Record<string, TreeValue>
  children: TreeNode[]
  /**
   * A tag the page wrote as JSX (`<div>`, `<img>`): rendered as the plain tag, not through the
   * theme's component for it, as MDX renders explicit JSX. Markdown's own elements (a paragraph,
   * a heading, a code block) have no flag and go through the theme's components.
   */
  raw?: true
  /**
   * Properties whose value is a component, as the element it draws: the renderer gives the
   * component that draws it, with the props it is given laid over the element's own. Nextra gives
   * a code block's `pre` the icon of its language this way (an `<svg>`).
   */
  componentProps?: Record<string, TreeElement>
}

export type TreeNode = TreeText | TreeElement
export type TreeValue = string | number | boolean | null | TreeValue[] | { [key: string]: TreeValue }

/** One entry of the page's table of contents: a heading below the title. */
export interface TocEntry {
  depth: number
  /** The heading's anchor (its `id`). */
  id: string
  /** The heading's content, rendered like the page's. */
  value: TreeNode[]
}

export interface PageDocument {
  /** The page's route, `/docs/leads/intro`; `/` for the home page. */
  route: string
  /** Its source file, relative to the project (`content/docs/leads/intro.mdx`). */
  filePath: string
  /** Nextra's title: the front matter's, else the first heading's text. */
  title: string
  frontMatter: Record<string, TreeValue>
  /** Whether the first heading holds JSX (Nextra's pageOpts.hasJsxInH1). */
  hasJsxInH1?: boolean
  /** The page's body. */
  tree: TreeNode[]
  toc: TocEntry[]
  /** Nextra's search data: the page's text by heading (`id#heading` → text); absent when `searchable: false`. */
  structurizedData?: Record<string, string>
}

/** Each element of `nodes` and of their component props, deepest last. */
export function* elementsOf(nodes: readonly TreeNode[]): Generator<TreeElement> {
  for (const node of nodes) {
    if (node.type !== 'element') continue
    yield node
    for (const element of Object.values(node.componentProps ?? {})) yield* elementsOf([element])
    yield* elementsOf(node.children)
  }
}
