/**
 * What a PDF under public/ may hold: pages, text, images and links, nothing its viewer runs or
 * sends. A PDF opened from the site runs in the browser's PDF viewer, which the site's
 * Content-Security-Policy does not govern: its JavaScript, a form that submits, a program it
 * launches or a file it carries would act in the site's name. Its names (`/JavaScript`, also spelt
 * `/J#61vaScript`) are read in its bytes and in each of its Flate streams, where a PDF 1.5 keeps
 * its objects; one that is encrypted, or keeps its objects in another form, cannot be read, and is refused.
 */
import zlib from 'node:zlib'
import { ContentError } from './contentError'

/** The names of what a viewer runs or sends, and what each does. */
const ACTIONS = new Map([
  ['JavaScript', 'runs JavaScript'],
  ['JS', 'runs JavaScript'],
  ['Launch', 'launches a program or a file'],
  ['SubmitForm', 'sends a form to an address'],
  ['ImportData', 'imports data into a form'],
  ['RichMedia', 'plays embedded media'],
  ['EmbeddedFile', 'carries an embedded file'],
  ['EmbeddedFiles', 'carries embedded files'],
  ['GoToE', 'opens an embedded file'],
  ['XFA', 'holds an XFA form, which runs scripts'],
  ['Encrypt', 'is encrypted, so it cannot be checked'],
])

export class UnsafePdfError extends ContentError {
  constructor(file: string, problem: string) {
    super(file, `${file}: this PDF is refused: it ${problem}. Export it again as a plain PDF (no forms, scripts, attachments or password).`)
  }
}

/** `text` with a PDF name's `#xx` escapes decoded (`/J#61vaScript` is `/JavaScript`). */
const unescapedNames = (text: string) => text.replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** A PDF name (`/Name`, `#xx` escapes decoded) in `bytes`, read as Latin-1. */
function* namesIn(bytes: Buffer): Generator<string> {
  for (const [, name] of bytes.toString('latin1').matchAll(/\/([^\s/<>[\](){}%]+)/g)) yield unescapedNames(name)
}

/** The short names of Flate that a viewer reads (pdf.js reads both). */
const FLATE = new Set(['FlateDecode', 'Fl'])

/**
 * The dictionary of the stream whose `stream` keyword is at `at`: the text since its object's
 * header. Null when that cannot be told: no header, or one in a comment, or a string after it
 * (which could spell a header of its own, or hide this one's).
 */
function streamDictionary(text: string, at: number): string | null {
  const floor = Math.max(0, at - 65_536)
  for (let obj = text.lastIndexOf('obj', at); obj >= floor; obj = text.lastIndexOf('obj', obj - 1)) {
    if (text.startsWith('endobj', obj - 3)) return null
    const header = /(?:^|[^\w.+-])\d+\s+\d+\s+$/.exec(text.slice(Math.max(0, obj - 40), obj))
    if (!header) continue
    const dictionary = text.slice(obj + 3, at)
    const lineStart = Math.max(text.lastIndexOf('\n', obj), text.lastIndexOf('\r', obj)) + 1
    if (/[()%]/.test(dictionary) || text.slice(lineStart, obj).includes('%')) return null
    return unescapedNames(dictionary)
  }
  return null
}

/**
 * The decoded bytes of each Flate stream of `bytes`. An object stream (`/Type /ObjStm`, or
 * `/First`: pdf.js reads one through the file's cross-references, whatever its `/Type`), where a PDF 1.5 keeps its
 * objects, must be read whole: plain, or Flate alone with no predictor; in another form (ASCIIHex,
 * ASCII85, LZW, a chain, a predictor) its names could not be read, and the PDF is refused, as it
 * is when a stream's dictionary cannot be told. Another stream (a page's contents, an image, a
 * font) holds no object, and is read when Flate alone.
 */
function* flateStreams(file: string, bytes: Buffer): Generator<Buffer> {
  const text = bytes.toString('latin1')
  for (const found of text.matchAll(/>>\s*stream(?![A-Za-z])(?:\r\n|\r|\n)?/g)) {
    const from = found.index + found[0].length
    const dictionary = streamDictionary(text, found.index + 2)
    if (dictionary === null) throw new UnsafePdfError(file, 'keeps a stream whose dictionary the check cannot read')
    const declared = [...dictionary.matchAll(/\/Filter\b\s*(\/\w+|\[[^\]]*\])?/g)]
    const filters = [...(declared[0]?.[1] ?? '').matchAll(/\/(\w+)/g)].map(([, name]) => name)
    const predictor = Number(/\/Predictor\s+(\d+)/.exec(dictionary)?.[1] ?? 1)
    const flateAlone = declared.length === 1 && filters.length === 1 && FLATE.has(filters[0]) && predictor <= 1
    const objects = /\/First\b|\/Type\s*\/ObjStm\b/.test(dictionary)
    if (objects && declared.length > 0 && !flateAlone) throw new UnsafePdfError(file, 'keeps its objects in a stream the check cannot read (not plain or Flate alone)')
    if (!flateAlone) continue
    let decoded: Buffer | null = null
    try {
      // To the end of its Flate data, not to the first `endstream`, which its bytes may also spell.
      decoded = zlib.inflateSync(bytes.subarray(from), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
    } catch {
      // A viewer may still read the objects before the damage.
      if (objects) throw new UnsafePdfError(file, 'keeps its objects in a stream that does not decode')
    }
    if (decoded) yield decoded
  }
}

/** Throws an UnsafePdfError for the first thing in `bytes`, the PDF `file`, that a PDF of the site may not hold. */
export function checkPdf(file: string, bytes: Buffer): void {
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new UnsafePdfError(file, 'is no PDF (it has no %PDF- header)')
  for (const part of [bytes, ...flateStreams(file, bytes)]) {
    for (const name of namesIn(part)) {
      const does = ACTIONS.get(name)
      if (does) throw new UnsafePdfError(file, does)
    }
  }
}
