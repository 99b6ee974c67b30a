import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFederation, type FederationConfig } from './federation';
import { SITE_STACK_REGION } from './stack-outputs';
import { readScriptHashesFile } from '../../edge/scriptHashesFile';
import { SCRIPT_HASHES_FILE } from '../../edge/securityHeaders';
import { RULES_FINGERPRINT_FILE } from '../../edge/rulesFingerprint';
import { assertFitsViewerRequest } from '../../edge/packageLimit';
import { assertBuiltForProduction } from '../../lib/auth/builtFor';

/** Region of the Cognito user pool (the site build and the CSP point at it). */
export const AUTH_REGION = 'eu-west-2';
/** Lambda@Edge functions (and CloudFront certificates) must live in us-east-1. */
export const SITE_REGION = SITE_STACK_REGION;
/** Placeholder account so `cdk synth` works without credentials. */
export const PLACEHOLDER_ACCOUNT = '111111111111';

export interface InfraConfig {
  /** Absolute path to the built Lambda@Edge authorizer (folder with index.js). */
  readonly edgeCodeDir: string;
  /** Absolute path to the built AI tools' server (folder with index.js; pipeline/steps/buildMcp.ts). */
  readonly mcpCodeDir: string;
  /** Optional custom domain for the distribution (needs certificateArn too). */
  readonly domainName?: string;
  /** Optional ACM certificate ARN in us-east-1 covering domainName. */
  readonly certificateArn?: string;
  /** AWS account for both stacks. */
  readonly account: string;
  /** An OIDC or SAML identity provider for the user pool; none by default. */
  readonly federation?: FederationConfig;
  /**
   * Put an AWS WAF web ACL (AWS managed common rule set) in front of the distribution. Off by
   * default: every request for a file already passes the viewer-request authorizer, the site is
   * static files read with GET and HEAD only, the AI tools' server at /mcp verifies a bearer token on
   * every request, and a web ACL costs a monthly fee per ACL and rule plus a fee per request
   * (infra/lib/web-acl.ts, README "Deploy").
   */
  readonly waf?: boolean;
  /**
   * The AWS WAF rate rule on AI-tool registrations (POST /oauth/reg, lib/aiTools/registrationLimits.ts).
   * On by default, and deployed even with `waf` off (a web ACL with this rule alone); off only where
   * its fee matters more than a bound on registrations (infra/lib/web-acl.ts, docs/deploy.md).
   */
  readonly wafRegistrationLimit?: boolean;
}

/** Reads one setting: CDK context (`-c key=value`) first, then an env var. */
export type SettingReader = (contextKey: string, envKey: string) => string | undefined;

export interface ResolveConfigOptions {
  /** Directory that the defaults are relative to (the infra/ folder). */
  readonly infraDir: string;
  readonly read: SettingReader;
  /** Base for relative paths given via context/env (default: process.cwd()). */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Thrown when a build output that synth needs is not there. */
export class MissingBuildOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingBuildOutputError';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/**
 * Resolves the app settings. Defaults: edgeCodeDir = <infra>/../edge/dist,
 * mcpCodeDir = <infra>/../mcp/dist. Paths passed via
 * context/env are resolved against the current working directory (infra/ when
 * run through `cdk`).
 */
export function resolveInfraConfig(opts: ResolveConfigOptions): InfraConfig {
  const cwd = opts.cwd ?? process.cwd();
  const env: Readonly<Record<string, string | undefined>> = opts.env ?? process.env;
  const edge = nonEmpty(opts.read('edgeCodeDir', 'EDGE_CODE_DIR'));
  const mcp = nonEmpty(opts.read('mcpCodeDir', 'MCP_CODE_DIR'));
  const domainName = nonEmpty(opts.read('domainName', 'DOMAIN_NAME'));
  const certificateArn = nonEmpty(opts.read('certificateArn', 'CERTIFICATE_ARN'));

  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error(
      'domainName and certificateArn must be given together (or neither, to use the *.cloudfront.net domain).',
    );
  }
  if (certificateArn !== undefined && !certificateArn.startsWith(`arn:aws:acm:${SITE_REGION}:`)) {
    throw new Error(
      `certificateArn must be an ACM certificate in ${SITE_REGION} (CloudFront requirement), got: ${certificateArn}`,
    );
  }

  const waf = onOff('waf', opts.read('waf', 'WAF'), false);
  const wafRegistrationLimit = onOff('wafRegistrationLimit', opts.read('wafRegistrationLimit', 'WAF_REGISTRATION_LIMIT'), true);

  return {
    edgeCodeDir: edge ? path.resolve(cwd, edge) : path.resolve(opts.infraDir, '..', 'edge', 'dist'),
    mcpCodeDir: mcp ? path.resolve(cwd, mcp) : path.resolve(opts.infraDir, '..', 'mcp', 'dist'),
    domainName,
    certificateArn,
    account: nonEmpty(env.CDK_DEFAULT_ACCOUNT) ?? PLACEHOLDER_ACCOUNT,
    federation: readFederation(opts.read),
    waf,
    wafRegistrationLimit,
  };
}

/** An on/off setting: on, off, true or false (any case), or unset for the default. */
function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  const setting = nonEmpty(value)?.toLowerCase();
  if (setting === undefined) return fallback;
  if (!['on', 'off', 'true', 'false'].includes(setting)) {
    throw new Error(`${name} is "${setting}"; use "on" or "off" (default ${fallback ? 'on' : 'off'}).`);
  }
  return setting === 'on' || setting === 'true';
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function missingScriptHashes(edgeCodeDir: string): string {
  return (
    `Edge authorizer directory ${edgeCodeDir} has no ${SCRIPT_HASHES_FILE} (the pages' inline-script hashes, for the Content-Security-Policy).\n` +
    '  Build the site and the authorizer together with `npm run build:prod` (an authorizer built before hash-based CSP has none).'
  );
}

/**
 * The inline-script hashes of the build whose authorizer is in edgeCodeDir: the site build leaves
 * them beside the bundle (pipeline/steps/buildEdge.ts), and the response-headers policy's
 * Content-Security-Policy allows exactly them, as the authorizer does. There is no fallback: a
 * policy without them would block every page's inline scripts, one with 'unsafe-inline' would undo
 * the point. Throws MissingBuildOutputError when the file is not there.
 */
export function readScriptHashes(edgeCodeDir: string): string[] {
  const file = path.join(edgeCodeDir, SCRIPT_HASHES_FILE);
  if (!isFile(file)) throw new MissingBuildOutputError(`Cannot synthesize the docs infrastructure:\n- ${missingScriptHashes(edgeCodeDir)}`);
  return readScriptHashesFile(file);
}

/**
 * The two functions' bundles are packaged as assets at synth time, so they must exist before
 * `cdk synth`/`cdk deploy`. The site's files (out/) are not: `npm run deploy` uploads them, and the
 * stack needs only the script hashes the site build leaves beside the authorizer. Throws
 * MissingBuildOutputError naming the missing directory and the command that creates it.
 */
export function assertBuildOutputs(config: Pick<InfraConfig, 'edgeCodeDir' | 'mcpCodeDir'>): void {
  const problems: string[] = [];
  if (!isDir(config.edgeCodeDir)) {
    problems.push(
      `Edge authorizer directory not found: ${config.edgeCodeDir}\n` +
        '  Create it with `npm run build:prod` (or pass -c edgeCodeDir=<dir>).',
    );
  } else if (!isFile(path.join(config.edgeCodeDir, 'index.js'))) {
    problems.push(
      `Edge authorizer directory ${config.edgeCodeDir} has no index.js (expected exports.handler).\n` +
        '  Rebuild it with `npm run build:prod`.',
    );
  } else if (!isFile(path.join(config.edgeCodeDir, SCRIPT_HASHES_FILE))) {
    problems.push(missingScriptHashes(config.edgeCodeDir));
  } else if (!isFile(path.join(config.edgeCodeDir, RULES_FINGERPRINT_FILE))) {
    problems.push(
      `Edge authorizer directory ${config.edgeCodeDir} has no ${RULES_FINGERPRINT_FILE} (the rules it decides with, which npm run deploy checks the stack against).\n` +
        '  Build the site and the authorizer together with `npm run build:prod`.',
    );
  }
  if (!isFile(path.join(config.mcpCodeDir, 'index.js'))) {
    problems.push(
      `AI tools' server bundle not found: ${path.join(config.mcpCodeDir, 'index.js')}\n` +
        '  Create it with `npm run build:prod` (or pass -c mcpCodeDir=<dir>).',
    );
  }
  if (problems.length > 0) {
    throw new MissingBuildOutputError(
      `Cannot synthesize the docs infrastructure:\n${problems.map((p) => `- ${p}`).join('\n')}\n` +
        'A first deploy makes the user pool alone, whose ids the build needs: `npx cdk deploy DocsAuthStack --exclusively`.',
    );
  }
  // What AWS would run: built for the real user pool (lib/auth/builtFor.ts), and an authorizer Lambda@Edge accepts.
  assertBuiltForProduction([config.edgeCodeDir, config.mcpCodeDir], 'Cannot synthesize the docs infrastructure');
  assertFitsViewerRequest(config.edgeCodeDir);
}
