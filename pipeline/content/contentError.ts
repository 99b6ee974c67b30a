/** An error whose `name` is its class's, in each class that extends it. */
export class NamedError extends Error {
  name = this.constructor.name
}

/**
 * The base of every content problem the build's first step reports (./checkContent.ts): it names
 * the file or folder, relative to the project, and its message says what to do.
 */
export abstract class ContentError extends NamedError {
  constructor(readonly path: string, message: string) {
    super(message)
  }
}

/** `file:line:column: ` where a problem has a place in the file, `file: ` where it has none. */
export function locate(file: string, line?: number, column?: number): string {
  if (line === undefined) return `${file}: `
  return column === undefined ? `${file}:${line}: ` : `${file}:${line}:${column}: `
}
