/**
 * Renders a compiled page (./pageDocument.ts) as React elements, through a fixed map of
 * components: the theme's MDX components for Markdown's elements (headings with anchors, `pre`
 * with its copy button, tables, links…, from the same `useMDXComponents()` the compiled MDX called)
 * and the writer components a page may use. Nothing is evaluated, so the site's
 * Content-Security-Policy needs no 'unsafe-eval'.
 *
 * Browser code: no Node imports. The compile step (pipeline/compile/toPageDocument.mjs) refuses any
 * component not in WRITER_COMPONENTS; the tests check that both lists agree.
 */
import { createElement, Fragment, type ComponentType, type ReactNode } from 'react'
import { Callout, Cards, FileTree, Steps, Tabs } from 'nextra/components'
import { useMDXComponents } from 'nextra/mdx'
import { Bleed } from 'nextra-theme-docs'
import { SectionCards } from '../../components/SectionCards'
import { elementProblem, type DrawnAs } from './pageRules'
import type { PageDocument, TreeElement, TreeNode } from './pageDocument'
import { tocWords } from './tocWords'

// The maps hold components of many prop types; each is given the props its page wrote.
type AnyComponent = ComponentType<any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** The components a page may write, by the name it writes them with (`Tabs.Tab` included). */
const WRITER_MAP: Record<string, AnyComponent> = {
  Bleed,
  Callout,
  Cards,
  'Cards.Card': Cards.Card,
  FileTree,
  'FileTree.File': FileTree.File,
  'FileTree.Folder': FileTree.Folder,
  SectionCards,
  Steps,
  Tabs,
  'Tabs.Tab': Tabs.Tab,
}

export const WRITER_COMPONENTS: readonly string[] = Object.keys(WRITER_MAP).sort()

/** The theme's MDX components, as `useMDXComponents()` returns them. */
type MdxComponents = Record<string, AnyComponent | string | undefined>

/** A name not in the map: the compile step refuses these, so only a hand-made document has one. */
export class UnknownComponentError extends Error {
  constructor(name: string) {
    super(`the page names the component "${name}", which is not in the renderer's map`)
    this.name = 'UnknownComponentError'
  }
}

/**
 * A document holding what a page may not: code, a tag outside the list, a URL of another scheme, an
 * id without its prefix, a style that moves content out of its place (./pageRules.ts). The compile
 * step refuses it with the page's line and column (pipeline/compile/pageSanitizer.mjs, from the
 * same data), so only a document the compile did not make has one. Rendering stops rather than
 * hand it to React, which would write it into the HTML; the route shows the error instead.
 */
export class CodeInPageError extends Error {
  constructor(what: string) {
    super(`the page document holds ${what}, which pages cannot hold; pages are compiled by the content step, which refuses it`)
    this.name = 'CodeInPageError'
  }
}

/** Every element drawn passes here first: the Markdown's, the written tags, components, icons. */
function assertAllowed(node: TreeElement, drawnAs: DrawnAs = 'html'): void {
  const problem = elementProblem(node, drawnAs)
  if (problem) throw new CodeInPageError(problem)
}

function typeOf(node: TreeElement, components: MdxComponents): AnyComponent | string {
  if (node.raw) return node.tagName
  if (/^[a-z]/.test(node.tagName) && !node.tagName.includes('.')) return components[node.tagName] ?? node.tagName
  const component = WRITER_MAP[node.tagName]
  if (!component) throw new UnknownComponentError(node.tagName)
  return component
}

/**
 * The component that draws `element` (a code block's icon), with the props it is given laid over
 * the element's own, as an icon component of nextra/icons lays them over its defaults. One per
 * element, so React keeps the same component from one render to the next.
 */
const drawers = new WeakMap<TreeElement, AnyComponent>()
function drawerOf(element: TreeElement): AnyComponent {
  let drawer = drawers.get(element)
  if (!drawer) {
    drawer = function Drawn(props: Record<string, unknown>) {
      return createElement(element.tagName, { ...element.properties, ...props }, ...element.children.map((child) => renderIconNode(child)))
    }
    drawers.set(element, drawer)
  }
  return drawer
}

/** A part of a code block's icon: SVG shapes only, no components. */
function renderIconNode(node: TreeNode): ReactNode {
  if (node.type === 'text') return node.value
  assertAllowed(node, 'icon')
  return createElement(node.tagName, { ...node.properties }, ...node.children.map(renderIconNode))
}

/** An icon, checked whole before it is handed to the component that may draw it (a few shapes). */
function assertIcon(node: TreeNode): void {
  if (node.type === 'text') return
  assertAllowed(node, 'icon')
  node.children.forEach(assertIcon)
}

function renderNode(node: TreeNode, components: MdxComponents): ReactNode {
  if (node.type === 'text') return node.value
  assertAllowed(node)
  const props: Record<string, unknown> = { ...node.properties }
  for (const [name, element] of Object.entries(node.componentProps ?? {})) {
    assertIcon(element)
    props[name] = drawerOf(element)
  }
  // Children as arguments, as compiled JSX passes them: no keys needed, and one child is not an array.
  return createElement(typeOf(node, components), props, ...node.children.map((child) => renderNode(child, components)))
}

/** Renders nodes with the given MDX components (those of the nearest MDX provider, usually). */
export function renderNodes(nodes: readonly TreeNode[], components: MdxComponents): ReactNode[] {
  return nodes.map((node) => renderNode(node, components))
}

function TreeNodes({ nodes }: { nodes: readonly TreeNode[] }) {
  const components = useMDXComponents() as MdxComponents
  // As arguments, like compiled JSX's static children: React wants no keys for those.
  return createElement(Fragment, null, ...renderNodes(nodes, components))
}

/** The page's body, as its compiled MDX rendered it (without the theme's wrapper, which the layout adds). */
export function PageBody({ tree }: { tree: readonly TreeNode[] }) {
  return <TreeNodes nodes={tree} />
}

/**
 * A table-of-contents entry's value, as Nextra's `useTOC()` gave it: the heading's text as a
 * string when it is only text, else its content rendered with the page's components.
 */
export function renderTocValue(nodes: readonly TreeNode[]): ReactNode {
  const words = tocWords(nodes)
  if (words.length === 1 && words[0].type === 'text') return words[0].value
  return <TreeNodes nodes={words} />
}

/** One entry of the table of contents the theme's wrapper is given, as Nextra's `useTOC()` returns it. */
export interface TocItem {
  depth: number
  id: string
  /** The heading's text, or its content rendered (Nextra's type says string; its values are either). */
  value: ReactNode
}

/** The page's table of contents for the theme (its wrapper's `toc`): what the compiled page's `useTOC()` returned. */
export function tocOf(doc: Pick<PageDocument, 'toc'>): TocItem[] {
  return doc.toc.map((entry) => ({ depth: entry.depth, id: entry.id, value: renderTocValue(entry.value) }))
}
