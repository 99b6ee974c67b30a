import { GROUPS_CLAIM } from '../../lib/access/types';
import type { SettingReader } from './config';

/**
 * An identity provider the user pool can federate with, so staff sign in with the company
 * directory. Off by default. Its groups attribute is mapped into the `custom:groups` claim, which
 * access.config.ts reads (`groupsClaim`), so a `group:<name>` list entry can follow directory
 * membership with no build and no deploy.
 */
export type FederationConfig =
  | (FederationCommon & { readonly type: 'oidc'; readonly issuerUrl: string; readonly clientId: string; readonly clientSecretName: string })
  | (FederationCommon & { readonly type: 'saml'; readonly metadataUrl: string });

interface FederationCommon {
  /** The provider's name in the pool, and on the sign-in button ("Sign in with <name>"). */
  readonly name: string;
  /** The provider's attribute that holds the user's groups. */
  readonly groupsAttribute: string;
  /** Prefix of the pool's hosted domain (<prefix>.auth.<region>.amazoncognito.com), which federation needs. */
  readonly domainPrefix: string;
  /** Where Cognito may send the browser back after sign-in and sign-out: the site's /login. */
  readonly callbackUrls: readonly string[];
  readonly logoutUrls: readonly string[];
}

/** The pool's hosted domain for a provider: the site build's DOCS_COGNITO_DOMAIN. */
export const hostedDomainOf = (federation: Pick<FederationConfig, 'domainPrefix'>, region: string) => `${federation.domainPrefix}.auth.${region}.amazoncognito.com`;

/** The pool attribute (GROUPS_CLAIM, custom:groups, in tokens) that carries the provider's groups. */
export const GROUPS_ATTRIBUTE = GROUPS_CLAIM.slice('custom:'.length);

export class FederationConfigError extends Error {
  constructor(message: string) {
    super(`identity provider settings: ${message}`);
    this.name = 'FederationConfigError';
  }
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/**
 * Reads the provider from context (`-c idpType=oidc …`) or the environment (IDP_TYPE …).
 * Nothing set: no provider. A partial setting fails with the names of what is missing.
 */
export function readFederation(read: SettingReader): FederationConfig | undefined {
  const get = (key: string) => read(key, key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase())?.trim() || undefined;
  const type = get('idpType');
  if (!type) return undefined;
  if (type !== 'oidc' && type !== 'saml') throw new FederationConfigError(`idpType is "${type}"; use "oidc" or "saml"`);
  const required = ['idpName', 'idpDomainPrefix', 'idpCallbackUrls', ...(type === 'oidc' ? ['idpIssuerUrl', 'idpClientId', 'idpClientSecretName'] : ['idpMetadataUrl'])];
  const missing = required.filter((key) => !get(key));
  if (missing.length) throw new FederationConfigError(`idpType ${type} also needs ${missing.join(', ')}`);
  const callbackUrls = list(get('idpCallbackUrls'));
  for (const url of [...callbackUrls, ...list(get('idpLogoutUrls'))]) {
    if (!/^https:\/\/[^/]+\/login$/.test(url)) throw new FederationConfigError(`${url} must be the site's https://…/login page`);
  }
  const common = {
    name: get('idpName') as string,
    groupsAttribute: get('idpGroupsAttribute') ?? (type === 'oidc' ? 'groups' : 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'),
    domainPrefix: get('idpDomainPrefix') as string,
    callbackUrls,
    logoutUrls: list(get('idpLogoutUrls')).length ? list(get('idpLogoutUrls')) : callbackUrls,
  };
  if (!/^[A-Za-z0-9 _-]{1,32}$/.test(common.name)) throw new FederationConfigError(`idpName "${common.name}" must be 1-32 letters, digits, spaces, _ or -`);
  return type === 'oidc'
    ? { ...common, type, issuerUrl: get('idpIssuerUrl') as string, clientId: get('idpClientId') as string, clientSecretName: get('idpClientSecretName') as string }
    : { ...common, type, metadataUrl: get('idpMetadataUrl') as string };
}
