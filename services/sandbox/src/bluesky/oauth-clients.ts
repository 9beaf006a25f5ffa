import { isIP } from 'node:net';
import { isNetError, safeRequest } from '@postbus/net';
import { AtprotoOAuthError, invalidClientMetadata, type BlueskyOAuthRules } from './oauth-store';
import { checkClientMetadata, isLocalHostname, type ClientMetadata } from './oauth-client-metadata';

/** A client as the authorization server knows it: its metadata document (fetched, or made up for a loopback id). */
export interface AtprotoClient {
  id: string;
  metadata: ClientMetadata;
  /** The keys a confidential client signs its assertions with (`jwks`, or what `jwks_uri` answered). */
  keys: Record<string, unknown>[];
  confidential: boolean;
}

const LOOPBACK_ORIGIN = 'http://localhost';
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The virtual metadata of a loopback client (https://atproto.com/specs/oauth#localhost-client-development):
 * `http://localhost` with no port or path, only `redirect_uri` (127.0.0.1 or [::1], http) and one
 * `scope` in the query; a public native client.
 */
function loopbackMetadata(clientId: string): ClientMetadata | undefined {
  if (!clientId.startsWith(LOOPBACK_ORIGIN) || clientId.includes('#')) return undefined;
  let rest = clientId.slice(LOOPBACK_ORIGIN.length);
  if (rest.startsWith('/')) rest = rest.slice(1);
  if (rest && !rest.startsWith('?')) return undefined;
  const redirects: string[] = [];
  let scope: string | undefined;
  for (const [key, value] of new URLSearchParams(rest.slice(1))) {
    if (key === 'scope' && scope === undefined && SCOPE.test(value)) scope = value;
    else if (key === 'redirect_uri' && isLoopbackRedirect(value)) redirects.push(value);
    else return undefined;
  }
  return {
    client_id: clientId,
    scope: scope ?? 'atproto',
    redirect_uris: redirects.length ? redirects : ['http://127.0.0.1/', 'http://[::1]/'],
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    dpop_bound_access_tokens: true,
  };
}

function isLoopbackRedirect(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
  } catch {
    return false;
  }
}

/**
 * A discoverable client id: an https URL with a path, no credentials, fragment, trailing slash or IP
 * host, in canonical form (draft-ietf-oauth-client-id-metadata-document). With
 * `allowLoopbackClientMetadata`, http on a loopback host (any port) passes too.
 */
export function discoverableUrl(clientId: string, rules: BlueskyOAuthRules): URL | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return undefined;
  }
  const loopback = rules.allowLoopbackClientMetadata && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) return undefined;
  if (url.username || url.password || url.hash || clientId.includes('#')) return undefined;
  if (url.pathname === '/' || url.pathname.endsWith('/')) return undefined;
  if (!loopback && isIP(url.hostname.replace(/^\[|\]$/g, ''))) return undefined;
  if (url.href !== clientId) return undefined;
  if (!loopback && isLocalHostname(url.hostname))
    throw new AtprotoOAuthError('invalid_client_id', "The client_id's TLD must not be a local hostname");
  return url;
}

/** Fetches a JSON document for the authorization server: SSRF-safe, no redirects, bounded, 200 only. */
async function fetchJson(url: URL, rules: BlueskyOAuthRules, what: string, strictType: boolean): Promise<unknown> {
  let res;
  try {
    res = await safeRequest(url, {
      allowLoopback: rules.allowLoopbackClientMetadata,
      timeoutMs: rules.fetchTimeoutMs,
      maxResponseBytes: rules.fetchMaxBytes,
      maxRedirects: 0,
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    if (isNetError(err)) throw invalidClientMetadata(`${what}: ${err.message}`);
    throw err;
  }
  if (res.status !== 200) throw invalidClientMetadata(`${what}: Unexpected status code ${res.status}`);
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (strictType ? type !== 'application/json' : !/^application\/(.+\+)?json$/.test(type))
    throw invalidClientMetadata(`${what}: Unexpected content type "${type}"`);
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw invalidClientMetadata(`${what}: Invalid JSON`);
  }
}

/**
 * The client behind a client_id (ClientManager.getClient of the reference server): a loopback id's
 * virtual metadata, or the document at the https URL, checked against the atproto profile.
 */
export async function resolveClient(clientId: string, rules: BlueskyOAuthRules): Promise<AtprotoClient> {
  const loopback = loopbackMetadata(clientId);
  const url = loopback ? undefined : discoverableUrl(clientId, rules);
  if (!loopback && !url) throw invalidClientMetadata(`Invalid client ID "${clientId}"`);
  // https://atproto.com/specs/oauth#client-id-metadata-document: HTTP 200, application/json, its own URL as client_id.
  const document =
    loopback ?? (await fetchJson(url!, rules, `Unable to obtain client metadata for "${clientId}"`, true));
  const metadata = checkClientMetadata(clientId, document, { loopback: !!loopback, rules });
  let keys = metadata.jwks?.keys ?? [];
  if (metadata.jwks_uri) {
    const jwksUrl = new URL(metadata.jwks_uri);
    const jwks = (await fetchJson(
      jwksUrl,
      rules,
      `Unable to obtain jwks from "${metadata.jwks_uri}" for "${clientId}"`,
      false,
    )) as { keys?: unknown };
    if (!Array.isArray(jwks?.keys))
      throw invalidClientMetadata(`Unable to obtain jwks from "${metadata.jwks_uri}" for "${clientId}"`);
    keys = jwks.keys as Record<string, unknown>[];
  }
  return { id: clientId, metadata, keys, confidential: metadata.token_endpoint_auth_method !== 'none' };
}

/** An error the reference server raises for a client, unchanged when it already is an OAuth error. */
export function asClientError(err: unknown, clientId: string): AtprotoOAuthError {
  if (err instanceof AtprotoOAuthError) return err;
  return invalidClientMetadata(`Unable to obtain client metadata for "${clientId}"`);
}
