/**
 * What an SVG under public/ may hold: drawing, text and styling, nothing that runs or reaches out.
 * An SVG opened on its own is a document of the site's origin, so a `<script>`, an event handler or
 * a `foreignObject` of HTML in it would run with the reader's session, and a reference to another
 * file or site would load it. The file is read with a strict XML parser (saxes) and checked
 * against an allowlist of SVG elements; anything else is refused at its line.
 */
import type { SaxesParser as Parser, SaxesTagNS } from 'saxes'
import { ContentError, locate } from './contentError'

const SVG_NS = 'http://www.w3.org/2000/svg'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'
const XLINK_NS = 'http://www.w3.org/1999/xlink'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'

/** Elements that draw, group, describe or style; not `script`, `foreignObject`, `a`, `image`, `feImage`, animation or `iframe`. */
const ELEMENTS = new Set(
  (
    'svg g defs title desc metadata symbol use switch path rect circle ellipse line polyline polygon text tspan textPath marker ' +
    'linearGradient radialGradient stop pattern clipPath mask filter style ' +
    'feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight ' +
    'feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight ' +
    'feSpecularLighting feSpotLight feTile feTurbulence'
  ).split(' ')
)

/** A `url(…)` whose target is not a fragment of the same file (`url(#arrow)`). */
const OUTSIDE_URL = /url\(\s*(?!['"]?#)/i
/** CSS that loads or runs something whatever the property, in any attribute a style can be read from. */
const CSS_CODE = /@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding/i
/**
 * Also what loads an image without url(), and an escape (`\\75 rl(`, `@\\69mport`), which spells any
 * of these in other letters: in a style sheet, a `style` attribute, and any other attribute, since
 * the browser reads presentation attributes (`mask`, `cursor`, `fill`) as CSS.
 */
const STYLE_CODE = /image-set\s*\(|(?<![\w-])image\s*\(|cross-fade\s*\(|(?<![\w-])element\s*\(|(?<![\w-])src\s*\(|\\/i

/** Attributes that name, describe or tag an element, which no browser reads as CSS (an editor writes `id="Image (2)"`). */
const TEXT_ATTRIBUTE = /^(aria-|data-)|^(role|id|class|lang|tabindex|title)$/

/** An SVG under public/ that holds script, an event handler, an embedded document or an outside reference. */
export class UnsafeSvgError extends ContentError {
  constructor(file: string, problem: string, line?: number) {
    super(file, `${locate(file, line)}this SVG is refused: ${problem}`)
  }
}

export const SVG_ALLOWED = 'An SVG may hold shapes, text, gradients, markers, filters and styles, with references only to its own ids (#id); export it from your editor as plain SVG.'

/** Throws an UnsafeSvgError for the first thing in `text`, the SVG `file`, that an SVG of the site may not hold. */
export function checkSvg(file: string, text: string): void {
  // Loaded with the first SVG read, not with the build: a rebuild whose SVGs did not change reads none.
  const { SaxesParser } = require('saxes') as { SaxesParser: typeof Parser }
  const parser = new SaxesParser({ xmlns: true, position: true })
  const refuse = (problem: string): never => {
    throw new UnsafeSvgError(file, `${problem}. ${SVG_ALLOWED}`, parser.line)
  }
  const checkCss = (css: string, where: string, isText = false) => {
    const code = CSS_CODE.exec(css) ?? (isText ? null : STYLE_CODE.exec(css))
    if (code) refuse(`${where} holds CSS that loads or runs something, or an escape that could spell it (${code[0]})`)
    if (OUTSIDE_URL.test(css)) refuse(`${where} holds a url(…) to another file; only url(#id) is allowed`)
  }
  let root = true
  // A <style> element's text, whole: the browser reads its text, CDATA and text around a comment as one style sheet.
  let style: string | null = null
  parser.on('doctype', () => refuse('it declares a DOCTYPE, whose entities can expand or hide markup'))
  parser.on('processinginstruction', (instruction) => refuse(`it holds the instruction <?${instruction.target}?>, which can load a style sheet`))
  parser.on('opentag', (tag: SaxesTagNS) => {
    // The browser skips an element inside a style sheet and reads the text around it as one.
    if (style !== null) refuse(`<${tag.name}> is inside a <style> element, which holds CSS only`)
    if (tag.uri !== SVG_NS) refuse(`<${tag.name}> is not an SVG element${tag.uri ? ` (its namespace is ${tag.uri})` : ''}`)
    if (root && tag.local !== 'svg') refuse(`the file's first element is <${tag.name}>, not <svg>`)
    root = false
    if (!ELEMENTS.has(tag.local)) refuse(`<${tag.name}> is not allowed: it runs code, embeds a document or loads another file`)
    for (const attribute of Object.values(tag.attributes)) {
      const { name, local, uri, value } = attribute
      if (uri === XMLNS_NS) continue
      if (uri !== '' && uri !== XLINK_NS && uri !== XML_NS) refuse(`the attribute ${name} of <${tag.name}> is not an SVG attribute`)
      if (/^on/i.test(local)) refuse(`the attribute ${name} of <${tag.name}> is an event handler, which runs code`)
      if ((local === 'href' || local === 'src') && !value.trim().startsWith('#')) refuse(`the attribute ${name}="${value}" of <${tag.name}> points outside the file`)
      if (/javascript:|data:/i.test(value.replace(/\s+/g, ''))) refuse(`the attribute ${name} of <${tag.name}> holds a javascript: or data: URL`)
      checkCss(value, `the attribute ${name} of <${tag.name}>`, uri === XML_NS || ((uri !== XLINK_NS || local === 'title') && TEXT_ATTRIBUTE.test(local)))
    }
    if (tag.local === 'style') style = ''
  })
  parser.on('closetag', () => {
    // Only a style element's own end: nothing else closes inside one (an element there is refused).
    if (style !== null) checkCss(style, 'a <style> element')
    style = null
  })
  const styleText = (text: string) => {
    if (style !== null) style += text
  }
  parser.on('text', styleText)
  parser.on('cdata', styleText)
  parser.on('error', (error) => refuse(`it is not well-formed XML: ${error.message.replace(/^[^:]*:\d+:\d+: /, '')}`))
  parser.write(text).close()
  if (root) refuse('it holds no <svg> element')
}
