/**
 * The fingerprint of the rules an edge bundle decides with, written beside it
 * (`edge/dist/rules-fingerprint.txt`) by the edge build and read by `npm run deploy`, which
 * records it in the bucket: files built under other rules than the edge in front of them may be
 * served to readers neither set of rules admits (docs/deploy.md, "Two deploys, in this order").
 *
 * It covers what decides which readers a file's key reaches, apart from who is on each list:
 * whether the docs are protected, the path rules (the sections' included), the fallback, the
 * public paths, and the asset routes' folder keys (where each audience's aggregates are decided).
 * The lists' members are left out: no file of out/ depends on them (npm run deploy:access). So a
 * page's edit, which keeps the edge bundle, keeps the fingerprint too. Node only: the Lambda
 * bundle never imports this.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { isFolderKey, type AssetRoutes } from '../lib/access/governingRoute'
import { BUILD_CODE_FOLDERS } from '../lib/pathFormats'

export const RULES_FINGERPRINT_FILE = 'rules-fingerprint.txt'

const FINGERPRINT = /^[0-9a-f]{64}$/

export class RulesFingerprintError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RulesFingerprintError'
  }
}

/**
 * What in the compiled access decides which readers a path reaches, apart from who is on each
 * list: the one statement of it, which the edge's fingerprint and the build's records of the
 * rules it was made with (pipeline/steps/audiencesFile.ts) are made from.
 */
export function pathRulesFacts(access: CompiledAccess) {
  const rules = access.rules.map(({ path: rulePath, match, require }) => [rulePath, match, require])
  return { protectDocs: access.protectDocs, rules, fallback: access.fallback, publicPaths: [...access.publicPaths].sort() }
}

export function rulesFingerprint(access: CompiledAccess, assetRoutes: AssetRoutes): string {
  // The build code's folders take a route the rules alone decide (BUILD_CODE_FOLDERS), so they add
  // nothing; left out, a deploy from before them is not taken for a change of rules.
  const folders = Object.keys(assetRoutes).filter((key) => isFolderKey(key) && !BUILD_CODE_FOLDERS.includes(key)).sort().map((key) => [key, assetRoutes[key]])
  return crypto.createHash('sha256').update(JSON.stringify({ ...pathRulesFacts(access), folders })).digest('hex')
}

export function writeRulesFingerprint(edgeDist: string, fingerprint: string): void {
  fs.writeFileSync(path.join(edgeDist, RULES_FINGERPRINT_FILE), fingerprint + '\n')
}

/** The fingerprint beside the edge bundle in `edgeDist`; an error naming the file when there is none. */
export function readRulesFingerprint(edgeDist: string): string {
  const file = path.join(edgeDist, RULES_FINGERPRINT_FILE)
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8').trim()
  } catch {
    throw new RulesFingerprintError(`${file} is missing: the deploy needs the edge bundle built with out/ (npm run build:prod writes both)`)
  }
  if (!FINGERPRINT.test(text)) throw new RulesFingerprintError(`${file} does not hold a rules fingerprint (64 hex digits); build again`)
  return text
}

/**
 * Throws RulesFingerprintError unless out/ (`outDir`, whose record names `outRules`, null for none)
 * was built under the rules of the authorizer in `edgeDist` (`rules`): out/ of another build (a page
 * those rules narrowed, still whole in an audience's llms file) must not go out beside it. The
 * fingerprint, not the build, is compared: a writer's edit keeps the rules, and the authorizer.
 */
export function assertOutBuiltUnder(outDir: string, outRules: string | null, edgeDist: string, rules: string): void {
  const fix = 'deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)'
  if (outRules === null) throw new RulesFingerprintError(`${outDir} has no record of a finished build that names its rules: ${fix}`)
  if (outRules !== rules) throw new RulesFingerprintError(`${outDir} was built under other rules than the authorizer in ${edgeDist}: ${fix}`)
}
