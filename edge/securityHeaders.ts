/**
 * Headers for every response the authorizer or the local server produces. In AWS the
 * distribution's response-headers policy (infra/) sets the same on files served from S3.
 */
export function contentSecurityPolicy(cognitoOrigin: string, hostedDomain?: string): string {
  return [
    "default-src 'self'",
    // The hosted domain is where a federated sign-in exchanges its code for tokens.
    `connect-src 'self' ${cognitoOrigin}${hostedDomain ? ` https://${hostedDomain}` : ''}`,
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    // Next's static export inlines its bootstrap data and the early scripts; Pagefind (search)
    // compiles WebAssembly, which 'wasm-unsafe-eval' allows without allowing JavaScript eval.
    "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
}

export function securityHeaders(cognitoOrigin: string, hostedDomain?: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(cognitoOrigin, hostedDomain),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-frame-options': 'DENY',
  }
}

export const cognitoOriginFor = (region: string, endpoint?: string) => endpoint ?? `https://cognito-idp.${region}.amazonaws.com`
