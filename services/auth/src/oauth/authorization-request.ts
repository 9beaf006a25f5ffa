import type { ClientDirectory } from './client-directory';
import {
  InvalidClientError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  isOAuthError,
  UnsupportedResponseTypeError,
  type OAuthError,
} from './oauth-errors';
import type { OAuthClient } from './oauth-client';
import { parseScopes, type OAuthScope } from './oauth-scopes';
import { redirectUriMatches } from './redirect-uri.rules';

/** An authorization request that passed every check: what the consent page shows and the code will carry. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: OAuthScope[];
  state?: string;
  codeChallenge: string;
  resource: string;
}

export type AuthorizationRequestCheck =
  | { ok: true; request: AuthorizationRequest }
  /** The client or its redirect URI cannot be trusted: tell the person, never redirect (RFC 6749 §4.1.2.1). */
  | { ok: false; redirect: false; error: OAuthError }
  /** Everything else goes back to the client's redirect URI. */
  | { ok: false; redirect: true; redirectUri: string; state?: string; error: OAuthError };

/** The parameters of an authorization request, from a query string or the consent form. */
export const AUTHORIZATION_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

const VSCHAR = /^[\u0020-\u007e]+$/;
const PKCE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizationRequestDeps {
  clients: ClientDirectory;
  /** The resources (RFC 8707) tokens may be for; the first is the default when a request names none. */
  resources: string[];
}

/**
 * Checks an authorization request: a known client and one of its redirect URIs first, then
 * `response_type=code`, PKCE with S256 (required), known scopes and a resource this server serves.
 */
export async function checkAuthorizationRequest(
  params: Record<string, unknown>,
  deps: AuthorizationRequestDeps,
): Promise<AuthorizationRequestCheck> {
  const clientId = params.client_id;
  if (typeof clientId !== 'string' || !clientId || !VSCHAR.test(clientId))
    return { ok: false, redirect: false, error: new InvalidRequestError('Missing parameter: client_id.') };
  let client: OAuthClient | undefined;
  try {
    client = await deps.clients.find(clientId);
  } catch (err) {
    if (isOAuthError(err)) return { ok: false, redirect: false, error: err };
    throw err;
  }
  if (!client)
    return {
      ok: false,
      redirect: false,
      error: new InvalidClientError('Invalid client: no client is registered with this client_id.'),
    };
  const redirectUri = params.redirect_uri;
  if (typeof redirectUri !== 'string' || !redirectUri)
    return { ok: false, redirect: false, error: new InvalidRequestError('Missing parameter: redirect_uri.') };
  if (!redirectUriMatches(redirectUri, client.redirectUris)) {
    return {
      ok: false,
      redirect: false,
      error: new InvalidRequestError(
        `Invalid request: the redirect_uri ${redirectUri} is not registered for this client.`,
      ),
    };
  }

  const state = typeof params.state === 'string' && params.state ? params.state : undefined;
  const refuse = (error: OAuthError): AuthorizationRequestCheck => ({
    ok: false,
    redirect: true,
    redirectUri,
    state,
    error,
  });
  if (params.state !== undefined && (typeof params.state !== 'string' || (params.state && !VSCHAR.test(params.state))))
    return refuse(new InvalidRequestError('Invalid parameter: state.'));
  if (params.response_type !== 'code')
    return refuse(new UnsupportedResponseTypeError('Unsupported response type: only response_type=code is supported.'));
  if (typeof params.code_challenge !== 'string' || !params.code_challenge) {
    return refuse(new InvalidRequestError('PKCE is required: send code_challenge with code_challenge_method=S256.'));
  }
  if (params.code_challenge_method !== 'S256')
    return refuse(new InvalidRequestError('Invalid request: code_challenge_method must be S256.'));
  if (!PKCE_CHALLENGE.test(params.code_challenge))
    return refuse(new InvalidRequestError('Invalid parameter: code_challenge.'));
  const scopes = parseScopes(params.scope);
  if (!scopes.ok)
    return refuse(
      new InvalidScopeError(
        `Invalid scope: ${scopes.unknown.join(' ')}; use profile, mcp:read, mcp:write and offline_access.`,
      ),
    );
  const resource = params.resource === undefined || params.resource === '' ? deps.resources[0] : params.resource;
  if (typeof resource !== 'string' || !deps.resources.includes(resource)) {
    return refuse(new InvalidTargetError(`Invalid target: tokens are issued only for ${deps.resources.join(', ')}.`));
  }
  return {
    ok: true,
    request: { client, redirectUri, scopes: scopes.scopes, state, codeChallenge: params.code_challenge, resource },
  };
}

/** The client's redirect URI with the answer's parameters and `iss` (RFC 9207) added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

export function errorRedirect(check: Extract<AuthorizationRequestCheck, { redirect: true }>, issuer: string): string {
  return redirectWith(
    check.redirectUri,
    { error: check.error.name, error_description: check.error.message, state: check.state },
    issuer,
  );
}
