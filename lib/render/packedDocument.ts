/**
 * A page's document as its props carry it to the browser: the same tree (./pageDocument.ts) in a
 * shorter form. A node of the tree spells out `type`, `tagName`, `properties` and `children` in
 * every element and text, so those names were about half of a page's data file. Packed:
 * - a text is its string;
 * - an element is `[tagName, properties, children]`, with a fourth slot only for the rare element
 *   that is raw JSX or has component props (`{ raw: 1, componentProps: {…} }`);
 * - properties that several elements of the page have are written once (`shared`), and each of
 *   those elements names them by their index.
 *
 * The build packs (pipeline/render/pageProps.ts); the docs route unpacks before rendering. No Node
 * or browser imports: both sides use it.
 */
import { elementsOf, type PageDocument, type TocEntry, type TreeElement, type TreeNode, type TreeValue } from './pageDocument'

interface PackedFlags {
  raw?: 1
  componentProps?: Record<string, PackedElement>
}
type Properties = Record<string, TreeValue>
/** Properties in place, or the index of properties the document repeats (`PackedDocument.shared`). */
type PackedProperties = Properties | number
export type PackedElement = [tagName: string, properties: PackedProperties, children: PackedNode[], flags?: PackedFlags]
export type PackedNode = string | PackedElement

export interface PackedTocEntry {
  depth: number
  id: string
  value: PackedNode[]
}

/** The document a page's props carry: its search data stays in the build, its tree and table of contents are packed. */
export type PackedDocument = Omit<PageDocument, 'structurizedData' | 'tree' | 'toc'> & {
  tree: PackedNode[]
  toc: PackedTocEntry[]
  /**
   * Properties that several elements have, written once: a highlighted code block gives each token
   * a `style` of its two theme colours, and a page's tokens use a handful of them.
   */
  shared?: Properties[]
}

/** A packed document that is not one: props of another build, or a file damaged on the way. */
export class PackedDocumentError extends Error {
  constructor(what: string) {
    super(`page props: ${what} is not a packed document node (lib/render/packedDocument.ts)`)
    this.name = 'PackedDocumentError'
  }
}

/** Packs the nodes of one document, writing properties that occur more than once in `shared`. */
class Packer {
  readonly shared: Properties[] = []
  private readonly index = new Map<string, number>()
  /** Each element's properties as JSON, made once while counting. */
  private readonly keys = new Map<Properties, string>()

  constructor(trees: ReadonlyArray<readonly TreeNode[]>) {
    const seen = new Set<string>()
    for (const tree of trees) {
      for (const { properties } of elementsOf(tree)) {
        const key = JSON.stringify(properties)
        this.keys.set(properties, key)
        // `{}` is as short as any index.
        if (key === '{}' || this.index.has(key)) continue
        if (!seen.has(key)) seen.add(key)
        else this.index.set(key, this.shared.push(properties) - 1)
      }
    }
  }

  element(node: TreeElement): PackedElement {
    const packed: PackedElement = [node.tagName, this.index.get(this.keys.get(node.properties) ?? '{}') ?? node.properties, this.tree(node.children)]
    const componentProps = node.componentProps && Object.fromEntries(Object.entries(node.componentProps).map(([name, element]) => [name, this.element(element)]))
    if (node.raw || componentProps) packed.push({ ...(node.raw ? { raw: 1 as const } : {}), ...(componentProps ? { componentProps } : {}) })
    return packed
  }

  tree(nodes: readonly TreeNode[]): PackedNode[] {
    return nodes.map((node) => (node.type === 'text' ? node.value : this.element(node)))
  }
}

class Unpacker {
  constructor(private readonly shared: readonly Properties[] = []) {}

  element(packed: PackedElement): TreeElement {
    if (!Array.isArray(packed) || typeof packed[0] !== 'string' || !Array.isArray(packed[2])) throw new PackedDocumentError(JSON.stringify(packed).slice(0, 80))
    const [tagName, packedProperties, children, flags] = packed
    const properties = typeof packedProperties === 'number' ? this.shared[packedProperties] : packedProperties
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) throw new PackedDocumentError(JSON.stringify(packed).slice(0, 80))
    const node: TreeElement = { type: 'element', tagName, properties, children: this.tree(children) }
    if (flags?.raw) node.raw = true
    if (flags?.componentProps) node.componentProps = Object.fromEntries(Object.entries(flags.componentProps).map(([name, element]) => [name, this.element(element)]))
    return node
  }

  tree(nodes: readonly PackedNode[]): TreeNode[] {
    return nodes.map((node) => (typeof node === 'string' ? { type: 'text', value: node } : this.element(node)))
  }
}

/** The document as the props carry it. */
export function packDocument({ structurizedData: _searchData, tree, toc, ...rest }: PageDocument): PackedDocument {
  const packer = new Packer([tree, ...toc.map((entry) => entry.value)])
  const packed: PackedDocument = { ...rest, tree: packer.tree(tree), toc: toc.map((entry) => ({ ...entry, value: packer.tree(entry.value) })) }
  return packer.shared.length ? { ...packed, shared: packer.shared } : packed
}

/** The document the renderer takes, from the props. */
export function unpackDocument({ tree, toc, shared, ...rest }: PackedDocument): Omit<PageDocument, 'structurizedData'> {
  const unpacker = new Unpacker(shared)
  return { ...rest, tree: unpacker.tree(tree), toc: toc.map((entry): TocEntry => ({ ...entry, value: unpacker.tree(entry.value) })) }
}
