/**
 * What a PDF under public/ may hold: pages, text, images and links, nothing its viewer runs or
 * sends. A PDF opened from the site runs in the browser's PDF viewer, which the site's
 * Content-Security-Policy does not govern: its JavaScript, a form that submits, a program it
 * launches or a file it carries would act in the site's name. Its names (`/JavaScript`, also spelt
 * `/J#61vaScript`) are read in its bytes and in each of its Flate streams, where a PDF 1.5 keeps
 * its objects; one that is encrypted cannot be read, and is refused.
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

/** A PDF name (`/Name`, `#xx` escapes decoded) in `bytes`, read as Latin-1. */
function* namesIn(bytes: Buffer): Generator<string> {
  for (const [, name] of bytes.toString('latin1').matchAll(/\/([^\s/<>[\](){}%]+)/g)) yield name.replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** Each stream of `bytes` that Flate decodes (a stream of another filter, an image's, yields nothing). */
function* flateStreams(bytes: Buffer): Generator<Buffer> {
  const text = bytes.toString('latin1')
  const start = /stream\r?\n/g
  for (let found = start.exec(text); found; found = start.exec(text)) {
    const from = found.index + found[0].length
    const end = text.indexOf('endstream', from)
    if (end < 0) return
    try {
      yield zlib.inflateSync(bytes.subarray(from, end), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
    } catch {
      // Not Flate.
    }
    start.lastIndex = end
  }
}

/** Throws an UnsafePdfError for the first thing in `bytes`, the PDF `file`, that a PDF of the site may not hold. */
export function checkPdf(file: string, bytes: Buffer): void {
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new UnsafePdfError(file, 'is no PDF (it has no %PDF- header)')
  for (const part of [bytes, ...flateStreams(bytes)]) {
    for (const name of namesIn(part)) {
      const does = ACTIONS.get(name)
      if (does) throw new UnsafePdfError(file, does)
    }
  }
}
