/**
 * A folder's `_meta` file read as data, never run. Writers keep Nextra's syntax
 * (`export default { … }` in `.ts`, `.tsx`, `.js`, `.jsx` or `.mjs`), but the build takes the object
 * literal from the file's syntax tree: a `_meta` is written by whoever may commit a page, and a
 * module the build ran would run with the build machine's rights (and the deploy's credentials).
 *
 * Allowed: comments, one `export default` of an object literal whose values are strings (a
 * template without `${…}` included), numbers, booleans, null, arrays and objects of the same.
 * Anything else (an import, a call, a name, a spread, a computed key, JSX) is refused at its line
 * and column.
 */
import type * as TypeScript from 'typescript'
import { ContentError, locate } from './contentError'

/** A `_meta` file that is not data. */
export class BadMetaFileError extends ContentError {
  constructor(file: string, problem: string, line?: number, column?: number) {
    super(file, `${locate(file, line, column)}${problem}`)
  }
}

export const META_ALLOWED =
  'A _meta file holds one `export default { … }`: each key a page or folder name, each value a title or an object of settings, written as strings, numbers, booleans, null, lists and objects. It is read as data, never run: no import, call, name, spread, computed key, `${…}` or JSX.'

/** Keys that would change an object's prototype or shadow what every object has. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

// TypeScript's parser alone (no type checking), loaded when a `_meta` is first parsed.
let ts: typeof TypeScript | undefined
const typescript = () => (ts ??= require('typescript') as typeof TypeScript)

/** The `_meta` file `file` (its name picks the syntax) holding `text`, as data; BadMetaFileError when it is anything else. */
export function parseMetaFile(file: string, text: string): Record<string, unknown> {
  const ts = typescript()
  const kind = /\.tsx$/.test(file) ? ts.ScriptKind.TSX : /\.ts$/.test(file) ? ts.ScriptKind.TS : /\.jsx$/.test(file) ? ts.ScriptKind.JSX : ts.ScriptKind.JS
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const refuse = (node: TypeScript.Node, what: string): never => {
    const { line, character } = tree.getLineAndCharacterOfPosition(node.getStart(tree))
    throw new BadMetaFileError(file, `${what}. ${META_ALLOWED}`, line + 1, character + 1)
  }
  const syntax = (tree as unknown as { parseDiagnostics?: TypeScript.DiagnosticWithLocation[] }).parseDiagnostics?.[0]
  if (syntax) {
    const { line, character } = tree.getLineAndCharacterOfPosition(syntax.start)
    throw new BadMetaFileError(file, `this _meta file is not valid syntax: ${ts.flattenDiagnosticMessageText(syntax.messageText, ' ').replace(/\.$/, '')}. It should read \`export default { intro: 'Introduction', … }\`.`, line + 1, character + 1)
  }

  const value = (node: TypeScript.Expression): unknown => {
    if (ts.isParenthesizedExpression(node)) return value(node.expression)
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
    if (ts.isNumericLiteral(node)) return Number(node.text)
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text)
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false
    if (node.kind === ts.SyntaxKind.NullKeyword) return null
    if (ts.isArrayLiteralExpression(node)) return node.elements.map((element) => (ts.isSpreadElement(element) || ts.isOmittedExpression(element) ? refuse(element, 'a list holds a spread or a hole') : value(element)))
    if (ts.isObjectLiteralExpression(node)) return object(node)
    if (ts.isTemplateExpression(node)) return refuse(node, 'a template with `${…}` is computed')
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) return refuse(node, 'a call runs code')
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return refuse(node, 'a function is code')
    if (ts.isIdentifier(node)) return refuse(node, `\`${node.text}\` is a name, whose value the build would have to run code to know`)
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) return refuse(node, 'JSX is a component')
    return refuse(node, `\`${node.getText(tree).slice(0, 40)}\` is not a plain value`)
  }

  const object = (node: TypeScript.ObjectLiteralExpression): Record<string, unknown> => {
    const result: Record<string, unknown> = {}
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) {
        return refuse(property, ts.isSpreadAssignment(property) ? 'a spread copies another value' : ts.isShorthandPropertyAssignment(property) ? `\`${property.name.text}\` is a name, not a value` : 'a method or accessor is code')
      }
      const name = property.name
      if (!ts.isIdentifier(name) && !ts.isStringLiteral(name) && !ts.isNumericLiteral(name) && !ts.isNoSubstitutionTemplateLiteral(name)) return refuse(name, 'a computed key is code')
      const key = name.text
      if (UNSAFE_KEYS.has(key)) refuse(name, `the key "${key}" is reserved`)
      if (Object.prototype.hasOwnProperty.call(result, key)) refuse(name, `the key "${key}" is written twice`)
      result[key] = value(property.initializer)
    }
    return result
  }

  let exported: Record<string, unknown> | undefined
  for (const statement of tree.statements) {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      if (exported) refuse(statement, 'a second `export default`')
      let expression = statement.expression
      while (ts.isParenthesizedExpression(expression)) expression = expression.expression
      if (!ts.isObjectLiteralExpression(expression)) refuse(expression, 'the default export is not an object literal')
      exported = object(expression as TypeScript.ObjectLiteralExpression)
    } else if (ts.isImportDeclaration(statement)) refuse(statement, 'an import loads code')
    else refuse(statement, 'a statement other than `export default { … }`')
  }
  if (!exported) throw new BadMetaFileError(file, `this _meta file has no \`export default { … }\`. ${META_ALLOWED}`, 1)
  return exported
}
