/**
 * The build's audiences as the authority needs them (lib/access/planAggregates.ts audienceSummaries),
 * in `.next/audiences.json`, with a fingerprint of the rules they were planned for.
 *
 * Everything in out/ built from several pages follows the path rules of its build. An authorizer
 * rebuilt later (npm run deploy:access) with other path rules over that out/ would serve files that
 * the new rules' readers may not open: a folder restricted after the build is still in its
 * section's search index and llms files. So an authorizer is built only on the rules the site was.
 * The lists' members are not in the fingerprint: nothing in out/ depends on them. A rule that
 * requires one group directly (`group:finance`) names it in the rule, so changing that is a rule
 * change; who is in the group is Cognito's, and changes nothing here.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import type { AudienceSummary } from '../../lib/access/readerView'
import { pathRulesFacts } from '../../edge/rulesFingerprint'
import { NamedError } from '../content/contentError'

export class RulesChangedError extends NamedError {
  constructor(file: string) {
    super(
      `the path rules in access.config.ts (rules, sections, public paths, fallback or DOCS_PROTECT) differ from those the site in out/ was built with (${path.relative('.', file)}); ` +
        'files built from several pages follow the rules of their build, so run the whole build again (npm run build:prod) and deploy it'
    )
  }
}

/** What in the compiled access the files of out/ depend on: the path rules (../../edge/rulesFingerprint.ts) and the sections, their words included (the llms files and search labels hold them), not the lists' members. */
export function builtRulesDigest(access: CompiledAccess): string {
  const sections = access.sections.map(({ id, title, description, entry, readers }) => ({ id, title, description, entry, readers }))
  return crypto.createHash('sha256').update(JSON.stringify({ ...pathRulesFacts(access), sections })).digest('hex')
}

export function writeAudiencesFile(file: string, access: CompiledAccess, audiences: readonly AudienceSummary[]): void {
  fs.writeFileSync(file, JSON.stringify({ rules: builtRulesDigest(access), audiences }, null, 1) + '\n')
}

/** The audiences of the build at `file`; with `access`, only if that build was made with the same path rules. */
export function readAudiencesFile(file: string, access?: CompiledAccess): AudienceSummary[] {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing; run the site build first (npm run build)`)
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { rules?: string; audiences?: AudienceSummary[] }
  if (!Array.isArray(saved.audiences)) throw new Error(`${file} holds no audiences; run the site build again (npm run build)`)
  if (access && saved.rules !== builtRulesDigest(access)) throw new RulesChangedError(file)
  return saved.audiences
}
