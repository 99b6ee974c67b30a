import type { TreeNode } from './pageDocument'

/** The inline elements a heading keeps in its table of contents entry: its words' styling. */
const TOC_INLINE = new Set(['code', 'em', 'strong', 'b', 'i', 'del', 's', 'u', 'sub', 'sup', 'kbd', 'mark', 'abbr', 'small', 'span'])

/**
 * What of a heading its entry in the table of contents and the phone menu shows: its words and
 * their styling. An image or a field there would be drawn at its own size in the column and the
 * menu, and a link would sit inside the entry's own link; a link's words stay, the rest goes.
 */
export function tocWords(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((node): TreeNode[] => {
    if (node.type === 'text') return [node]
    if (node.tagName === 'a') return tocWords(node.children)
    return TOC_INLINE.has(node.tagName) ? [{ ...node, children: tocWords(node.children) }] : []
  })
}
