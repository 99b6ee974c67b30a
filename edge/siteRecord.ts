/**
 * Which out/ an authorizer was built with: the digest of that build's record of out/
 * (pipeline/steps/outRecord.ts), written beside the bundle (`edge/dist/site-record.txt`) once the
 * record is, and checked by `npm run deploy`. The authorizer decides by path with the rules of its
 * build; out/ of another build (other rules: a page narrowed to fewer readers, still whole in an
 * audience's llms file) must not go out beside it. Node only: the Lambda bundle never imports this.
 */
import fs from 'node:fs'
import path from 'node:path'

export const SITE_RECORD_FILE = 'site-record.txt'

export class OtherBuildError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OtherBuildError'
  }
}

export function writeSiteRecord(edgeDist: string, digest: string): void {
  fs.writeFileSync(path.join(edgeDist, SITE_RECORD_FILE), digest + '\n')
}

/**
 * Throws OtherBuildError, naming both folders, unless the authorizer in `edgeDist` was built with
 * the out/ whose record's digest is `outDigest` (null: out/ has no record of a finished build).
 */
export function assertBuiltTogether(edgeDist: string, outDir: string, outDigest: string | null): void {
  const fix = `deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)`
  if (outDigest === null) throw new OtherBuildError(`${outDir} has no record of a finished build: ${fix}`)
  let linked: string
  try {
    linked = fs.readFileSync(path.join(edgeDist, SITE_RECORD_FILE), 'utf8').trim()
  } catch {
    throw new OtherBuildError(`${path.join(edgeDist, SITE_RECORD_FILE)} is missing, so nothing says which out/ its authorizer was built with: ${fix}`)
  }
  if (linked !== outDigest) throw new OtherBuildError(`the authorizer in ${edgeDist} was built with another out/ than ${outDir} (another build, whose rules may differ): ${fix}`)
}
