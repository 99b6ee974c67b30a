/**
 * @jest-environment node
 *
 * One decoder of HTML's character references for both checks of a javascript: URL: what a page
 * may hold (the compile workers' sanitizer, an ES module) and the built HTML (the scripts step).
 * A URL spelt with references must be seen as the browser sees it, by both.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { pageScripts } from '../../pipeline/steps/inlineScriptHashes'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { decodeCharacterReferences } = require('../../pipeline/compile/characterReferences.cjs') as { decodeCharacterReferences: (value: string) => string }

/** What the compile workers' sanitizer says of each URL, run as the workers run it: plain ESM in Node. */
function workerSchemes(urls: string[]): Array<string | null> {
  const sanitizer = path.join(__dirname, '../../pipeline/compile/pageSanitizer.mjs')
  const script = `import { urlScheme } from ${JSON.stringify(sanitizer)}\nprocess.stdout.write(JSON.stringify(${JSON.stringify(urls)}.map(urlScheme)))`
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))
}

const SPELLINGS = ['&#106;avascript:alert(1)', '&#x6A;avascript&colon;alert(1)', '&#0000106avascript&#58alert(1)', 'java&Tab;script&COLON;alert(1)', 'java&NewLine;script:alert(1)']

test('decodes numeric references and the named ones that spell a scheme, with or without the semicolon', () => {
  expect(decodeCharacterReferences('&#106;&#x61;&#X76;&#97&colon;&sol;&sol;&lpar;&rpar;&excl;&num;&quest;&amp;&period;&bsol;')).toBe('java://()!#?&.\\')
  expect(decodeCharacterReferences('a&Tab;b&NewLine;c')).toBe('a\tb\nc')
})

test('leaves alone what a browser would not decode to that character: unknown names, zero, beyond Unicode', () => {
  expect(decodeCharacterReferences('&copy-free; &nbsp &#0; &#x110000; &#;')).toBe('&copy-free; &nbsp &#0; &#x110000; &#;')
})

test('the compile and the scripts step both see each spelling as a javascript: URL', () => {
  expect(workerSchemes(SPELLINGS)).toEqual(SPELLINGS.map(() => 'javascript'))
  const { disallowed } = pageScripts(`<body>${SPELLINGS.map((url) => `<a href="${url}">x</a>`).join('')}</body>`)
  expect(disallowed).toEqual(SPELLINGS.map((url) => `a javascript: URL <a href="${url}">`))
})

test('a reference beyond Unicode in the built HTML is named by nothing, instead of stopping the scripts step', () => {
  expect(pageScripts('<body><a href="&#x110000;javascript:x">x</a></body>')).toEqual({ inline: [], disallowed: [] })
})
