import type { JsonWebKey } from 'node:crypto';
import { clientPublicJwk, loopbackClientId, type BlueskyOAuthOptions } from '@postbus/platforms';
import type { ConnectionsConfig } from '../config';
import { redirectUriFor } from './connect.ports';

/** What Postbus asks for: the account's identity and writing posts (https://atproto.com/specs/oauth#authorization-scopes). */
export const BLUESKY_OAUTH_SCOPE = 'atproto transition:generic';
export const BLUESKY_CLIENT_METADATA_PATH = '/oauth/bluesky/client-metadata.json';
export const BLUESKY_JWKS_PATH = '/oauth/bluesky/jwks.json';

type ClientConfig = Pick<
  ConnectionsConfig,
  | 'PUBLIC_BASE_URL'
  | 'POSTBUS_ENV'
  | 'BLUESKY_OAUTH_CLIENT_KEY'
  | 'BLUESKY_PLC_URL'
  | 'BLUESKY_SERVICE_URL'
  | 'PLATFORM_HTTP_TIMEOUT_MS'
>;

/** A loopback client's redirect URI names an IP literal, never "localhost"; the handoff's cookies must be on that same host. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * Postbus as an atproto OAuth client (https://atproto.com/specs/oauth#clients): with
 * BLUESKY_OAUTH_CLIENT_KEY, a confidential web client whose client ID is its metadata document
 * under PUBLIC_BASE_URL; without it, outside production, a loopback development client
 * (https://atproto.com/specs/oauth#localhost-client-development) when PUBLIC_BASE_URL is on 127.0.0.1 or [::1].
 * Undefined when neither fits: the handoff page then offers only the app password.
 */
export function blueskyOAuthOptions(config: ClientConfig): BlueskyOAuthOptions | undefined {
  const base = new URL(config.PUBLIC_BASE_URL);
  const common = {
    // The operator's configured services (the sandbox's in development) may live on a private network or loopback.
    access: {
      allowLoopback: false,
      trustedOrigins: [origin(config.BLUESKY_SERVICE_URL), origin(config.BLUESKY_PLC_URL)],
    },
    plcUrl: config.BLUESKY_PLC_URL,
    handleResolverUrl: config.BLUESKY_SERVICE_URL,
    timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS,
  };
  if (config.BLUESKY_OAUTH_CLIENT_KEY) {
    const clientKey = JSON.parse(config.BLUESKY_OAUTH_CLIENT_KEY) as JsonWebKey & { kid: string };
    return {
      ...common,
      client: {
        clientId: `${config.PUBLIC_BASE_URL}${BLUESKY_CLIENT_METADATA_PATH}`,
        redirectUri: redirectUriFor(config.PUBLIC_BASE_URL, 'bluesky'),
        scope: BLUESKY_OAUTH_SCOPE,
        clientKey,
      },
    };
  }
  if (config.POSTBUS_ENV === 'production' || !LOOPBACK_HOSTS.has(base.hostname)) return undefined;
  const redirectUri = redirectUriFor(config.PUBLIC_BASE_URL, 'bluesky');
  return {
    ...common,
    client: { clientId: loopbackClientId(redirectUri, BLUESKY_OAUTH_SCOPE), redirectUri, scope: BLUESKY_OAUTH_SCOPE },
  };
}

/**
 * The client metadata document a confidential client's ID points at
 * (https://atproto.com/specs/oauth#client-id-metadata-document); undefined for a loopback client.
 */
export function blueskyClientMetadata(
  options: BlueskyOAuthOptions | undefined,
  baseUrl: string,
): Record<string, unknown> | undefined {
  const client = options?.client;
  if (!client?.clientKey) return undefined;
  return {
    client_id: client.clientId,
    client_name: 'Postbus',
    client_uri: baseUrl,
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [client.redirectUri],
    scope: client.scope,
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    jwks_uri: `${baseUrl}${BLUESKY_JWKS_PATH}`,
    dpop_bound_access_tokens: true,
  };
}

/** The confidential client's public key set (its private key never leaves the config). */
export function blueskyJwks(options: BlueskyOAuthOptions | undefined): { keys: JsonWebKey[] } | undefined {
  const key = options?.client.clientKey;
  return key ? { keys: [clientPublicJwk(key)] } : undefined;
}

function origin(raw: string): string {
  return URL.parse(raw)?.origin ?? '';
}
