// HTML's character references, decoded as a browser decodes them in an attribute's value, so a
// check sees the URL the browser will follow: `&#106;avascript&colon;alert(1)` is a javascript:
// URL to a browser. The numeric references, and the named ones that can spell a scheme's parts;
// named ones are matched in any case, which only ever decodes more than a browser would.
//
// One decoder for both checks: what a page may hold (./pageSanitizer.mjs, in the compile workers,
// which are ES modules) and the built HTML's javascript: URLs (../steps/inlineScriptHashes.ts).
// CommonJS, so that both can load it. It runs in the compile, so it is part of the compile's
// fingerprint (./fingerprint.ts).
const NAMED = { colon: ':', tab: '\t', newline: '\n', sol: '/', bsol: '\\', period: '.', lpar: '(', rpar: ')', excl: '!', num: '#', quest: '?', amp: '&' }

exports.decodeCharacterReferences = function decodeCharacterReferences(value) {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[ref.toLowerCase()] ?? whole
  })
}
