/**
 * What of a page's source no reader sees, as the compile parses it: its import and export
 * statements, MDX comments (`{/* … *\/}`, `{// …}`, in text or in a tag's attribute), and link
 * definitions no link uses (Markdown's comment idiom `[//]: # (…)` among them), or that an earlier
 * one of the same label shadows. The Markdown the AI tools receive leaves these ranges out
 * (pipeline/steps/buildMarkdown.ts), so a comment hides there what it hides on the page, wherever
 * it is written. (A `.md` page's `<!-- … -->` is raw HTML, which the compile refuses.)
 */

/** Whether a node is code the page runs, or an expression of comments alone, which renders nothing. */
const isCode = (node) =>
  node.type === 'mdxjsEsm' || ((node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') && node.data?.estree?.body?.length === 0)

/**
 * A remark plugin, run on the tree as parsed (before the site's and Nextra's plugins change it),
 * that gives `report` the file's path and its hidden ranges, `[start, end)` offsets of its source.
 */
export function remarkHiddenRanges(report) {
  return () => (tree, vfile) => {
    const ranges = []
    // The labels the page's reference links and images use, and its definitions: known once the whole tree is read.
    const used = new Set()
    const definitions = []
    const walk = (node) => {
      const start = node.position?.start?.offset
      const end = node.position?.end?.offset
      if (node.type === 'linkReference' || node.type === 'imageReference') used.add(node.identifier)
      if (start !== undefined && end !== undefined) {
        if (isCode(node)) return void ranges.push([start, end])
        if (node.type === 'definition') return void definitions.push({ identifier: node.identifier, range: [start, end] })
      }
      for (const attribute of node.attributes ?? []) for (const comment of (attribute.value ?? attribute).data?.estree?.comments ?? []) ranges.push([comment.start, comment.end])
      node.children?.forEach(walk)
    }
    walk(tree)
    // The first definition of a label is the one its links take.
    const defined = new Set()
    for (const { identifier, range } of definitions) {
      if (!used.has(identifier) || defined.has(identifier)) ranges.push(range)
      defined.add(identifier)
    }
    report(vfile.path, ranges.sort(([a], [b]) => a - b))
  }
}

/** Ranges of a file as ranges of its body, which starts at `bodyStart` (the Markdown step reads the body alone). */
export const inBody = (ranges, bodyStart) => ranges.flatMap(([start, end]) => (end <= bodyStart ? [] : [[Math.max(0, start - bodyStart), end - bodyStart]]))
