import { AtprotoOAuthError, invalidClientMetadata, type BlueskyOAuthRules } from './oauth-store';

/** The client metadata fields the atproto profile reads (https://atproto.com/specs/oauth#client-id-metadata-document). */
export interface ClientMetadata {
  client_id?: string;
  application_type: 'web' | 'native';
  grant_types: string[];
  response_types: string[];
  scope?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: string;
  token_endpoint_auth_signing_alg?: string;
  dpop_bound_access_tokens?: boolean;
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri?: string;
  client_uri?: string;
  client_name?: string;
}

const invalidRedirectUri = (description: string) => new AtprotoOAuthError('invalid_redirect_uri', description);
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

function stringArray(doc: Record<string, unknown>, key: string, fallback: string[]): string[] {
  const value = doc[key];
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw invalidClientMetadata(`Validation of "${key}" failed with error: Expected array of strings`);
  return value;
}

function optionalString(doc: Record<string, unknown>, key: string): string | undefined {
  const value = doc[key];
  if (value !== undefined && typeof value !== 'string')
    throw invalidClientMetadata(`Validation of "${key}" failed with error: Expected string`);
  return value;
}

/** Reads the document's shape, with the OAuth defaults (token_endpoint_auth_method client_secret_basic, grant authorization_code). */
function parseMetadata(doc: unknown): ClientMetadata {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw invalidClientMetadata('Validation failed with error: Expected object');
  const d = doc as Record<string, unknown>;
  const applicationType = d.application_type ?? 'web';
  if (applicationType !== 'web' && applicationType !== 'native')
    throw invalidClientMetadata('Validation of "application_type" failed with error: Invalid enum value');
  const jwks = d.jwks as { keys?: unknown } | undefined;
  if (jwks !== undefined && (!jwks || typeof jwks !== 'object' || !Array.isArray(jwks.keys)))
    throw invalidClientMetadata('Validation of "jwks" failed with error: Expected a JWK set');
  const jwksUri = optionalString(d, 'jwks_uri');
  if (d.dpop_bound_access_tokens !== undefined && typeof d.dpop_bound_access_tokens !== 'boolean')
    throw invalidClientMetadata('Validation of "dpop_bound_access_tokens" failed with error: Expected boolean');
  return {
    client_id: optionalString(d, 'client_id'),
    application_type: applicationType,
    grant_types: stringArray(d, 'grant_types', ['authorization_code']),
    response_types: stringArray(d, 'response_types', ['code']),
    scope: optionalString(d, 'scope'),
    redirect_uris: stringArray(d, 'redirect_uris', []),
    token_endpoint_auth_method: optionalString(d, 'token_endpoint_auth_method') ?? 'client_secret_basic',
    token_endpoint_auth_signing_alg: optionalString(d, 'token_endpoint_auth_signing_alg'),
    dpop_bound_access_tokens: d.dpop_bound_access_tokens,
    jwks: jwks as ClientMetadata['jwks'],
    jwks_uri: jwksUri,
    client_uri: optionalString(d, 'client_uri'),
    client_name: optionalString(d, 'client_name'),
  };
}

const isDuplicate = (v: string, i: number, all: string[]) => all.indexOf(v) !== i;

/** Scopes, grant types and the client authentication method, in the reference server's order. */
function checkGrantsAndAuth(clientId: string, m: ClientMetadata): void {
  if (m.jwks && m.jwks_uri) throw invalidClientMetadata('jwks_uri and jwks are mutually exclusive');
  const scopes = m.scope?.split(' ');
  if (!scopes) throw invalidClientMetadata('Missing scope property');
  if (!scopes.includes('atproto')) throw invalidClientMetadata('Missing "atproto" scope');
  const dupScope = scopes.find(isDuplicate);
  if (dupScope) throw invalidClientMetadata(`Duplicate scope "${dupScope}"`);
  const dupGrant = m.grant_types.find(isDuplicate);
  if (dupGrant) throw invalidClientMetadata(`Duplicate grant type "${dupGrant}"`);
  for (const grant of m.grant_types) {
    if (grant === 'implicit') throw invalidClientMetadata(`Grant type "${grant}" is not allowed`);
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      throw invalidClientMetadata(`Grant type "${grant}" is not supported`);
  }
  if (m.client_id && m.client_id !== clientId) throw invalidClientMetadata('client_id does not match');
  if (m.token_endpoint_auth_method === 'none') {
    if (m.token_endpoint_auth_signing_alg)
      throw invalidClientMetadata('token_endpoint_auth_method "none" must not have token_endpoint_auth_signing_alg');
  } else if (m.token_endpoint_auth_method === 'private_key_jwt') {
    if (!m.jwks && !m.jwks_uri) throw invalidClientMetadata('private_key_jwt auth method requires jwks or jwks_uri');
    if (m.jwks?.keys.length === 0)
      throw invalidClientMetadata('private_key_jwt auth method requires at least one key in jwks');
    if (!m.token_endpoint_auth_signing_alg)
      throw invalidClientMetadata('Missing token_endpoint_auth_signing_alg client metadata');
  } else {
    throw invalidClientMetadata(
      `Unsupported client authentication method "${m.token_endpoint_auth_method}". Make sure "token_endpoint_auth_method" is set to one of: "none", "private_key_jwt"`,
    );
  }
  if (m.dpop_bound_access_tokens !== true) throw invalidClientMetadata('"dpop_bound_access_tokens" must be true');
  if (!m.response_types.includes('code')) throw invalidClientMetadata('response_types must include "code"');
  if (!m.grant_types.includes('authorization_code'))
    throw invalidClientMetadata('The "code" response type requires that "grant_types" contains "authorization_code"');
  if (!m.redirect_uris.length) throw invalidClientMetadata('At least one redirect_uri is required');
  if (m.application_type === 'native' && m.token_endpoint_auth_method !== 'none')
    throw invalidClientMetadata('Native clients must authenticate using "none" method');
}

/** One redirect URI against RFC 8252 and the atproto profile (the reference ClientManager's rules). */
function checkRedirectUri(uri: string, m: ClientMetadata, clientUrl: URL | undefined, rules: BlueskyOAuthRules): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalidRedirectUri('Invalid redirect URI');
  }
  if (url.username || url.password) throw invalidRedirectUri(`Redirect URI ${url.href} must not contain credentials`);
  const relaxed = rules.allowLoopbackClientMetadata && clientUrl?.protocol === 'http:';
  if (url.hostname === 'localhost' && !relaxed)
    throw invalidRedirectUri(`Loopback redirect URI ${url.href} is not allowed (use explicit IPs instead)`);
  if (LOOPBACK_IPS.has(url.hostname) || url.hostname === 'localhost') {
    if (m.application_type !== 'native' && !relaxed)
      throw invalidRedirectUri('Loopback redirect URIs are only allowed for native apps');
    if (url.protocol !== 'http:') throw invalidRedirectUri(`Loopback redirect URI ${url.href} must use HTTP`);
  } else if (url.protocol === 'http:') {
    throw invalidRedirectUri('Only loopback redirect URIs are allowed to use the "http" scheme');
  } else if (url.protocol === 'https:') {
    if (isLocalHostname(url.hostname))
      throw invalidRedirectUri(`Redirect URI "${url.href}"'s domain name must not be a local hostname`);
  } else if (url.protocol.includes('.')) {
    if (m.application_type !== 'native')
      throw invalidRedirectUri('Private-Use URI Scheme redirect URI are only allowed for native apps');
    const expected = `${clientUrl?.hostname.split('.').reverse().join('.')}:`;
    if (clientUrl && url.protocol !== expected)
      throw invalidRedirectUri(
        `Private-Use URI Scheme redirect URI, for discoverable client metadata, must be the fully qualified domain name (FQDN) of the client_id, in reverse order (${expected})`,
      );
  } else {
    throw invalidRedirectUri(`Invalid redirect URI scheme "${url.protocol}"`);
  }
}

/** Names that only mean something on a local network (the reference server's isLocalHostname). */
export function isLocalHostname(hostname: string): boolean {
  const parts = hostname.split('.');
  return parts.length < 2 || ['test', 'local', 'localhost', 'invalid', 'example'].includes(parts.at(-1)!.toLowerCase());
}

/** A client's metadata, refused with the reference server's error where the atproto profile refuses it. */
export function checkClientMetadata(
  clientId: string,
  doc: unknown,
  opts: { loopback: boolean; rules: BlueskyOAuthRules },
): ClientMetadata {
  const m = parseMetadata(doc);
  checkGrantsAndAuth(clientId, m);
  const clientUrl = opts.loopback ? undefined : new URL(clientId);
  // A JWKS is fetched like the document itself: https (or, relaxed, the same loopback http as the client id).
  if (
    m.jwks_uri &&
    !m.jwks_uri.startsWith('https://') &&
    !(clientUrl?.protocol === 'http:' && m.jwks_uri.startsWith('http://'))
  )
    throw invalidClientMetadata('Validation of "jwks_uri" failed with error: URL must use the "https:" protocol');
  for (const uri of m.redirect_uris) checkRedirectUri(uri, m, clientUrl, opts.rules);
  if (opts.loopback) return m;
  if (!m.client_id) throw invalidClientMetadata('client_id is required for discoverable clients');
  if (m.client_uri) {
    let clientUri: URL;
    try {
      clientUri = new URL(m.client_uri);
    } catch {
      throw invalidClientMetadata('Validation of "client_uri" failed with error: Invalid URL');
    }
    if (clientUri.origin !== clientUrl!.origin)
      throw invalidClientMetadata('client_uri must have the same origin as the client_id');
  }
  return m;
}
