/**
 * Headers for every response the authorizer or the local server produces. In AWS the
 * distribution's response-headers policy (infra/) sets the same on files served from S3.
 *
 * This is the one definition of the site's Content-Security-Policy: the edge bundle, the local
 * server and the CDK stack all call it, with the inline-script hashes of the build
 * (pipeline/steps/inlineScriptHashes.ts writes them; the edge has them baked in, the CDK stack
 * reads them from the edge bundle's folder, SCRIPT_HASHES_FILE).
 */

export interface PolicyInputs {
  /** The Cognito endpoint's origin the browser signs in through. */
  cognitoOrigin: string
  /** The pool's hosted domain, when a federated sign-in exchanges its code for tokens there. */
  hostedDomain?: string
  /** `sha256-<base64>` of every inline script the build's pages hold. */
  scriptHashes: readonly string[]
}

/** The file, in the edge bundle's folder, that holds the build's inline-script hashes. */
export const SCRIPT_HASHES_FILE = 'script-hashes.json'

/** What that file holds. */
export interface ScriptHashesFile {
  scriptHashes: string[]
}

const HASH_SOURCE = /^sha256-[A-Za-z0-9+/]{43}=$/

/** The hashes of a script-hashes file, checked, so a broken file fails where it is read, not in browsers. */
export function parseScriptHashes(value: unknown, origin = SCRIPT_HASHES_FILE): string[] {
  const hashes = (value as Partial<ScriptHashesFile> | null)?.scriptHashes
  if (!Array.isArray(hashes)) throw new Error(`${origin}: expected {"scriptHashes": ["sha256-…", …]}`)
  const wrong = hashes.filter((hash) => typeof hash !== 'string' || !HASH_SOURCE.test(hash))
  if (wrong.length) throw new Error(`${origin}: not a sha256 hash source: ${wrong.map((hash) => JSON.stringify(hash)).join(', ')}`)
  return hashes as string[]
}

export function contentSecurityPolicy({ cognitoOrigin, hostedDomain, scriptHashes }: PolicyInputs): string {
  if (!Array.isArray(scriptHashes)) throw new Error("contentSecurityPolicy: scriptHashes is required (the build's .next/script-hashes.json; [] for a server that serves no page)")
  for (const hash of scriptHashes) {
    if (!HASH_SOURCE.test(hash)) throw new Error(`contentSecurityPolicy: not a sha256 hash source: ${JSON.stringify(hash)}`)
  }
  return [
    "default-src 'self'",
    // The hosted domain is where a federated sign-in exchanges its code for tokens.
    `connect-src 'self' ${cognitoOrigin}${hostedDomain ? ` https://${hostedDomain}` : ''}`,
    "img-src 'self' data:",
    // The theme and Amplify UI set style attributes and inline <style> (colour mode, sidebar
    // heights, the sign-in form), so styles keep 'unsafe-inline' (README: Security headers).
    "style-src 'self' 'unsafe-inline'",
    // Scripts: the site's own files, and the few inline scripts of Next's static export and the
    // theme by hash (the build fails on one that the policy misses). Pagefind (search) compiles
    // WebAssembly, which 'wasm-unsafe-eval' allows without allowing JavaScript eval.
    ['script-src', "'self'", ...scriptHashes.map((hash) => `'${hash}'`), "'wasm-unsafe-eval'"].join(' '),
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
}

/** The sources of one directive of a policy (an empty list when the policy has no such directive). */
export function directiveSources(policy: string, directive: string): string[] {
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name?.toLowerCase() === directive) return sources
  }
  return []
}

/** Who may load the site's files from their own pages: the site alone (CloudFront's response headers policy sends the same, infra/lib/site-stack.ts). */
export const CROSS_ORIGIN_RESOURCE_POLICY = 'same-origin'

export function securityHeaders(inputs: PolicyInputs): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(inputs),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-frame-options': 'DENY',
    // A reader's cookie goes with a page's request from another site on the same registrable domain
    // (SameSite=Lax): without this, such a page could run a protected script of this site (a route
    // manifest) or draw its images, and read what they hold or whether they loaded.
    'cross-origin-resource-policy': CROSS_ORIGIN_RESOURCE_POLICY,
  }
}

export const cognitoOriginFor = (region: string, endpoint?: string) => endpoint ?? `https://cognito-idp.${region}.amazonaws.com`
