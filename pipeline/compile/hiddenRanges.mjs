/**
 * What of a page's source no reader sees, as the compile parses it: its import and export
 * statements, MDX comments (`{/* … *\/}`, `{// …}`) and Markdown's comment idiom (a link definition
 * to `#` or `<>`, `[//]: # (…)`). The Markdown the AI tools receive leaves these ranges out
 * (pipeline/steps/buildMarkdown.ts), so a comment hides there what it hides on the page, wherever
 * it is written. (A `.md` page's `<!-- … -->` is raw HTML, which the compile refuses.)
 */

/** Whether a node is code the page runs, or an expression of comments alone, which renders nothing. */
const isCode = (node) =>
  node.type === 'mdxjsEsm' || ((node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') && node.data?.estree?.body?.length === 0)

/** Whether a node is Markdown's comment: a definition that points nowhere, which no link of the page uses. */
const isComment = (node, used) => node.type === 'definition' && (node.url === '#' || node.url === '') && !used.has(node.identifier)

/** The identifiers of the definitions the page's reference links and images use. */
function usedDefinitions(tree) {
  const used = new Set()
  const walk = (node) => {
    if (node.type === 'linkReference' || node.type === 'imageReference') used.add(node.identifier)
    node.children?.forEach(walk)
  }
  walk(tree)
  return used
}

/**
 * A remark plugin, run on the tree as parsed (before the site's and Nextra's plugins change it),
 * that gives `report` the file's path and its hidden ranges, `[start, end)` offsets of its source.
 */
export function remarkHiddenRanges(report) {
  return () => (tree, vfile) => {
    const ranges = []
    const used = usedDefinitions(tree)
    const walk = (node) => {
      const start = node.position?.start?.offset
      const end = node.position?.end?.offset
      if (start !== undefined && end !== undefined && (isCode(node) || isComment(node, used))) ranges.push([start, end])
      else node.children?.forEach(walk)
    }
    walk(tree)
    report(vfile.path, ranges)
  }
}
