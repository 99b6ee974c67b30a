/**
 * What a page needs for every reader, checked as it compiles (./toPageDocument.mjs
 * `rehypeCheckPage` refuses each with the file's line and column; docs/writing.md says why):
 *
 * - every image has a text alternative: a screen reader reads it in place of the image, and a
 *   reader whose image did not load sees it (WCAG 1.1.1). Markdown's `![text](url)` gives it in
 *   the brackets; `<img alt="…">` in JSX, where `alt=""` marks an image as decoration on purpose;
 * - headings go down one level at a time (h1, h2, h3…), and the first is an h1 or h2 (the theme
 *   prints no title of its own): a screen reader's list of headings is the page's outline, and a
 *   skipped level reads as a missing section (WCAG 1.3.1).
 *
 * Plain ESM, no dependencies, like the rest of the compile.
 */

/** The level of a heading node (Markdown's or JSX's `<h3>`), or null. */
export function headingLevel(node) {
  const name = node.type === 'element' ? node.tagName : node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement' ? node.name : null
  const match = /^h([1-6])$/.exec(name ?? '')
  return match ? Number(match[1]) : null
}

/** Why a heading at `level` may not follow one at `previous` (null: the first heading), or null. */
export function headingProblem(level, previous) {
  if (previous === null) {
    return level <= 2 ? null : `the page's first heading is an h${level}: start with # (h1) or ## (h2), so the page's outline has a top`
  }
  if (level > previous + 1) {
    return `an h${level} follows an h${previous}, skipping ${level === previous + 2 ? `h${previous + 1}` : `h${previous + 1}–h${level - 1}`}: headings go down one level at a time (## then ###), so a screen reader's outline of the page has no gap`
  }
  return null
}

const ALT_FIX = 'describe what the image shows, as a reader who cannot see it needs it'

/**
 * Why an image has no text alternative, or null. Markdown images and JSX `<img>`; `valueOf` reads
 * a JSX attribute's value as the page will hold it (./toPageDocument.mjs attributeValue).
 */
export function altProblem(node, valueOf) {
  if (node.type === 'element' && node.tagName === 'img') {
    const alt = node.properties?.alt
    return typeof alt === 'string' && alt.trim() !== '' ? null : `an image without alt text (\`![](…)\`): write it as ![text](…); ${ALT_FIX}`
  }
  if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'img') {
    // alt="" is a decision (the image is decoration); no alt at all is an omission.
    const alt = node.attributes.find((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'alt')
    if (!alt) return `\`<img>\` without an alt attribute: add alt="…" (${ALT_FIX}), or alt="" for an image that is only decoration`
    // React writes no alt for `alt`, `alt={null}` or `alt={false}`: only text is an alternative.
    return typeof valueOf(alt) === 'string' ? null : `\`<img alt>\` without text: write alt="…" (${ALT_FIX}), or alt="" for an image that is only decoration`
  }
  return null
}
