import type { Request, Response } from 'express';
import type { SandboxState } from '../state';
import { authenticateClient } from './oauth-client-auth';
import { asClientError, resolveClient, type AtprotoClient } from './oauth-clients';
import { checkDpopProof } from './oauth-dpop';
import { bodyFields, oauthHeaders, originOf } from './oauth-http';
import { AtprotoOAuthError, invalidRequest, REQUEST_URI_PREFIX } from './oauth-store';

const invalidScope = (description: string) => new AtprotoOAuthError('invalid_scope', description);
const DID = /^did:(plc:[a-z2-7]{24}|web:[a-zA-Z0-9._:%-]+)$/;
const HANDLE = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

/** A loopback redirect matches a registered one except for its port (RFC 8252 7.3); any other must match exactly. */
export function matchesRedirect(allowed: string, requested: string): boolean {
  if (allowed === requested) return true;
  let a: URL;
  let r: URL;
  try {
    a = new URL(allowed);
    r = new URL(requested);
  } catch {
    return false;
  }
  if (!['localhost', '127.0.0.1', '[::1]'].includes(a.hostname)) return false;
  return (
    (!a.port || a.port === r.port) &&
    a.hostname === r.hostname &&
    a.pathname === r.pathname &&
    a.protocol === r.protocol &&
    a.search === r.search &&
    a.hash === r.hash
  );
}

/** The request against the client's metadata (Client.validateRequest): its id, declared scopes, response type and redirect URI. */
function checkAgainstClient(client: AtprotoClient, p: Record<string, string>): Record<string, string> {
  if (p.client_id !== client.id)
    throw invalidRequest('The "client_id" parameter field does not match the value used to authenticate the client');
  if (p.scope !== undefined) {
    const declared = client.metadata.scope?.split(' ') ?? [];
    for (const scope of p.scope.split(' '))
      if (!declared.includes(scope)) throw invalidScope(`Scope "${scope}" is not declared in the client metadata`);
  }
  if (!client.metadata.response_types.includes(p.response_type))
    throw invalidRequest(`Invalid response_type "${p.response_type}" requested by the client`);
  if (p.redirect_uri) {
    if (!client.metadata.redirect_uris.some((uri) => matchesRedirect(uri, p.redirect_uri)))
      throw invalidRequest(`Invalid redirect_uri ${p.redirect_uri}`);
    return p;
  }
  if (client.metadata.redirect_uris.length !== 1) throw invalidRequest('redirect_uri is required');
  return { ...p, redirect_uri: client.metadata.redirect_uris[0] };
}

/**
 * The authorization request's parameters, as the reference RequestManager.validate checks them for
 * the atproto profile: code only, PKCE with S256, the `atproto` scope and no `openid`, a handle or
 * DID as login_hint; and `state`, which the atproto profile makes mandatory.
 */
export function checkAuthorizationRequest(
  client: AtprotoClient,
  input: Record<string, string>,
): Record<string, string> {
  for (const k of ['claims', 'id_token_hint', 'nonce'])
    if (input[k] !== undefined) throw invalidRequest(`Unsupported "${k}" parameter`);
  if (!input.response_type) throw invalidRequest('Invalid authorization request: "response_type" is required');
  if (input.response_type !== 'code')
    throw new AtprotoOAuthError('unsupported_response_type', `Unsupported response_type "${input.response_type}"`);
  let p = checkAgainstClient(client, input);
  const scopes = new Set((p.scope ?? '').split(' ').filter(Boolean));
  if (!p.code_challenge) {
    if (p.code_challenge_method)
      throw invalidRequest('code_challenge is required when code_challenge_method is provided');
    throw invalidRequest('Use of PKCE is required');
  }
  if (p.code_challenge_method && !['plain', 'S256'].includes(p.code_challenge_method))
    throw invalidRequest(`Unsupported code_challenge_method "${p.code_challenge_method}"`);
  if (!scopes.has('atproto')) throw invalidScope('The "atproto" scope is required');
  if (scopes.has('openid')) throw invalidScope('OpenID Connect is not compatible with atproto');
  if (p.code_challenge_method !== 'S256') throw invalidRequest('atproto requires use of "S256" code_challenge_method');
  if (!p.state) throw invalidRequest('The "state" parameter is required by the atproto OAuth profile');
  if (p.response_mode && !['query', 'fragment'].includes(p.response_mode))
    throw invalidRequest(`Unsupported response_mode "${p.response_mode}"`);
  const hint = p.login_hint?.toLowerCase();
  if (hint) {
    if (!DID.test(hint) && !HANDLE.test(hint)) throw invalidRequest(`Invalid login_hint "${hint}"`);
    p = { ...p, login_hint: hint };
  }
  return { ...p, scope: [...scopes].join(' ') };
}

/**
 * POST /bluesky/oauth/par (RFC 9126): client, DPoP proof (nonce first), client authentication and
 * the request; answers 201 `{ request_uri, expires_in }`.
 */
export async function pushAuthorizationRequest(state: SandboxState, req: Request, res: Response): Promise<void> {
  const store = state.blueskyOAuth;
  oauthHeaders(res, store.authorizationNonces.next());
  const body = bodyFields(req);
  if (!body.client_id)
    throw new AtprotoOAuthError('invalid_client', 'Client credentials missing: "client_id" is required');
  if (body.request_uri !== undefined || body.request !== undefined)
    throw invalidRequest('Invalid authorization request: "request_uri" and "request" are not allowed here');
  const proof = checkDpopProof(req, {
    nonces: store.authorizationNonces,
    replays: store.replays,
    nowMs: state.now(),
  });
  const client = await resolveClient(body.client_id, store.rules).catch((err) => {
    throw asClientError(err, body.client_id);
  });
  const issuer = originOf(req);
  // PAR may bind the key by `dpop_jkt` alone (RFC 9449 10.1); the atproto profile has the client start DPoP here.
  const clientAuth = authenticateClient(store, client, body, proof, {
    issuer,
    nowMs: state.now(),
    allowMissingDpop: !!body.dpop_jkt,
  });
  if (proof && body.dpop_jkt && proof.jkt !== body.dpop_jkt)
    throw new AtprotoOAuthError('invalid_token', 'Invalid DPoP key binding', 401, true);
  const { client_assertion: _a, client_assertion_type: _t, dpop_jkt: _j, ...input } = body;
  const params = checkAuthorizationRequest(client, input);
  const pushed = store.pushRequest({
    clientId: client.id,
    clientAuth,
    params,
    dpopJkt: proof?.jkt ?? body.dpop_jkt,
  });
  res.status(201).json({
    request_uri: `${REQUEST_URI_PREFIX}${pushed.id}`,
    expires_in: Math.round((pushed.expiresAt - state.now()) / 1000),
  });
}
