import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as cdk from 'aws-cdk-lib';
import type { InfraConfig } from '../lib/config';
import { buildDocsStacks, type DocsStacks } from '../lib/docs-app';
import { writeBuiltFor } from '../../lib/auth/builtFor';
import { writeRulesFingerprint } from '../../edge/rulesFingerprint';

const INFRA_DIR = path.resolve(__dirname, '..');

/** An OIDC provider setting and a SAML one (infra/lib/federation.ts), for synth tests. */
const PROVIDER = { name: 'CompanySSO', groupsAttribute: 'groups', domainPrefix: 'company-docs', callbackUrls: ['https://docs.example.com/login'], logoutUrls: ['https://docs.example.com/login'] };
export const OIDC_PROVIDER = { ...PROVIDER, type: 'oidc' as const, issuerUrl: 'https://login.example.com', clientId: 'docs-client', clientSecretName: 'docs/oidc-client-secret' };
export const SAML_PROVIDER = { ...PROVIDER, type: 'saml' as const, metadataUrl: 'https://login.example.com/saml/metadata.xml' };
/** The user pool the fixture's AI tools' server names. */
export const USER_POOL = { mode: 'production' as const, region: 'eu-west-2', userPoolId: 'eu-west-2_FixturePool1' };
export const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000';


/** The rules fingerprint the fixture's authorizer is built with. */
export const FIXTURE_RULES = 'f'.repeat(64);
/**
 * A temporary folder with the build outputs synth packages (an authorizer with its script hashes,
 * the AI tools' server; not the site, which `npm run deploy` uploads), and a synth of both stacks
 * with cdk.json's feature flags, as `cdk synth` does.
 */
export function synthFixture(): { synth: (overrides?: Partial<InfraConfig>) => { app: cdk.App } & DocsStacks; outdir: () => string; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-infra-fixture-'));
  const edgeCodeDir = path.join(root, 'edge-dist');
  const mcpCodeDir = path.join(root, 'mcp-dist');
  fs.mkdirSync(edgeCodeDir);
  fs.mkdirSync(mcpCodeDir);
  fs.writeFileSync(path.join(mcpCodeDir, 'index.js'), 'exports.handler = async () => ({ statusCode: 404, body: "" });\n');
  // What the build writes beside both bundles: the user pool they were built for (lib/auth/builtFor.ts).
  writeBuiltFor(mcpCodeDir, USER_POOL);
  writeBuiltFor(edgeCodeDir, USER_POOL);
  fs.writeFileSync(path.join(edgeCodeDir, 'index.js'), 'exports.handler = async (event) => event.Records[0].cf.request;\n');
  // What the site build leaves beside the authorizer: its pages' inline-script hashes (sha256 of `a`).
  fs.writeFileSync(path.join(edgeCodeDir, 'script-hashes.json'), JSON.stringify({ scriptHashes: ['sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='] }));
  // And the fingerprint of the rules the authorizer decides with (edge/rulesFingerprint.ts).
  writeRulesFingerprint(edgeCodeDir, FIXTURE_RULES);
  const { context } = JSON.parse(fs.readFileSync(path.join(INFRA_DIR, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  // An app's cloud assembly goes under the fixture's folder (left out, the CDK makes one in the system's temporary folder and leaves it).
  const outdir = () => fs.mkdtempSync(path.join(root, 'cdkout-'));
  return {
    outdir,
    synth: (overrides = {}) => {
      const app = new cdk.App({ context, outdir: outdir() });
      const stacks = buildDocsStacks(app, { edgeCodeDir, mcpCodeDir, account: '111111111111', ...overrides });
      app.synth();
      return { app, ...stacks };
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
