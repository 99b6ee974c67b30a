/**
 * The text of a page or `_meta` file as the scan reads it: UTF-8 and no control character. A parser
 * of the scan (./scanRecord.ts SCAN_PARSER_FILES): a change here reads every page again.
 */
import { isUtf8 } from 'node:buffer'
import { ContentError, locate } from './contentError'
import { lineAt } from './pageLinks'
import { codePointName } from '../../lib/plainText.mjs'

/** A page or `_meta` file that is not UTF-8 text: read as it is, its other bytes would ship as U+FFFD. */
export class NotUtf8Error extends ContentError {
  constructor(file: string) {
    super(file, `${file}: the file is not UTF-8 text (it holds bytes of another encoding, such as Latin-1's é); save it as UTF-8.`)
  }
}

/** A page or `_meta` file holding a control character (NUL and the like): shipped as it is in the page's Markdown, it is no text. */
export class ControlCharacterError extends ContentError {
  constructor(file: string, code: number, line: number, column: number) {
    super(file, `${locate(file, line, column)}the file holds the control character ${codePointName(String.fromCodePoint(code))}, which is not text (only tabs and line breaks are); remove it.`)
  }
}

/** C0 controls and DEL but tab, line feed, vertical tab, form feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/

/** A page's or `_meta` file's text: UTF-8, without the byte-order mark an editor may put first (front matter starts at the first byte). */
export function textOfFile(file: string, bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new NotUtf8Error(file)
  const text = bytes.toString('utf8')
  const control = CONTROL.exec(text)
  if (control) throw new ControlCharacterError(file, text.charCodeAt(control.index), lineAt(text, control.index), control.index - text.lastIndexOf('\n', control.index - 1))
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
