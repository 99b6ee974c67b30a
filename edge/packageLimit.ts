/**
 * Lambda@Edge refuses a viewer-request function whose package is over 1 MB zipped, and says so
 * only as CloudFormation updates the stack. The access lists are baked into the authorizer, so a
 * list of many thousand users can pass that limit: the edge build and `cdk synth` check it first.
 * Node only: the Lambda bundle never imports this.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

/** Lambda@Edge's limit on a viewer-request function's package, zipped. */
export const VIEWER_REQUEST_ZIPPED_LIMIT = 1024 * 1024
/** A zip's headers for one file: its local header and its central directory entry, with the name. */
const ZIP_HEADERS = 128

/** About what the files of `dir` weigh as the zip CDK packages: each deflated, plus zip's headers. */
export function zippedBytes(dir: string): number {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + zlib.deflateRawSync(fs.readFileSync(path.join(dir, entry.name)), { level: 9 }).length + ZIP_HEADERS + entry.name.length, 0)
}

export class EdgePackageTooLargeError extends Error {
  constructor(dir: string, bytes: number) {
    super(
      `${dir} is ${(bytes / 1024 / 1024).toFixed(2)} MB zipped, over Lambda@Edge's ${VIEWER_REQUEST_ZIPPED_LIMIT / 1024 / 1024} MB limit for a viewer-request function. ` +
        'The access lists are baked into the authorizer: put a long list\'s users in a user-pool group and name the group in the list (group:<name>, docs/access.md) instead of each user.'
    )
    this.name = 'EdgePackageTooLargeError'
  }
}

/** Throws EdgePackageTooLargeError when the authorizer's package in `dir` would be refused. */
export function assertFitsViewerRequest(dir: string): void {
  const bytes = zippedBytes(dir)
  if (bytes > VIEWER_REQUEST_ZIPPED_LIMIT) throw new EdgePackageTooLargeError(dir, bytes)
}
