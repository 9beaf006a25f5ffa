import type { JsonWebKey } from 'node:crypto';
import { isNetError } from '@postbus/net';
import { OAuthError, oauthErrorFromResponse } from '../../oauth/oauth-error';
import type { PlatformAccount, RefreshedCredentials, StoredCredentials } from '../../oauth/oauth-client';
import { BLUESKY_PLATFORM } from '../api';
import {
  DpopSigner,
  asPrivateJwk,
  newDpopKey,
  randomToken,
  sha256b64url,
  signEs256,
  type DpopPrivateJwk,
} from './dpop';
import { refuse } from './errors';
import {
  discoverIssuer,
  fetchAuthServerMetadata,
  resolveBlueskyIdentity,
  type AuthServerMetadata,
  type BlueskyIdentityOptions,
} from './identity';
import { netFetch } from './net-fetch';

/**
 * The client side of the atproto OAuth profile (https://atproto.com/specs/oauth): start (discovery,
 * PAR with PKCE S256 and DPoP), finish (callback checks, code exchange, token checks) and refresh.
 */
export interface BlueskyOAuthClient {
  /** The URL of the client metadata document (a confidential web client), or a loopback client ID. */
  clientId: string;
  redirectUri: string;
  /** Space-separated; must contain `atproto` (`transition:generic` to write posts). */
  scope: string;
  /** A confidential client's ES256 private JWK (with its `kid`), whose public half its JWKS serves; absent: a public client (`none`). */
  clientKey?: JsonWebKey & { kid: string };
}

export interface BlueskyOAuthOptions extends BlueskyIdentityOptions {
  client: BlueskyOAuthClient;
}

/** What must be kept from start to callback (sealed: the verifier and the DPoP key are secrets). */
export interface PendingBlueskyAuthorization {
  state: string;
  codeVerifier: string;
  dpopJwk: DpopPrivateJwk;
  issuer: string;
  did: string;
  handle?: string;
  pdsUrl: string;
  /** The authorization server's latest DPoP nonce. */
  dpopNonce?: string;
}

/** One OAuth session: DPoP-bound tokens for `did` at `pdsUrl`, issued by `issuer`. */
export interface BlueskyOAuthSession {
  did: string;
  handle?: string;
  pdsUrl: string;
  issuer: string;
  accessToken: string;
  refreshToken: string;
  expiresAt: Date | null;
  scope: string[];
  dpopJwk: DpopPrivateJwk;
  dpopNonce?: string;
}

/** The loopback client ID for development (https://atproto.com/specs/oauth#localhost-client-development). */
export function loopbackClientId(redirectUri: string, scope: string): string {
  return `http://localhost?redirect_uri=${encodeURIComponent(redirectUri)}&scope=${encodeURIComponent(scope)}`;
}

/**
 * Discovery, then a pushed authorization request (https://atproto.com/specs/oauth#pushed-authorization-requests-par)
 * with PKCE S256 (#pkce), `state`, `login_hint` and a DPoP proof (#demonstrating-proof-of-possession-dpop).
 * Answers the URL to send the browser to and what to keep until the callback.
 */
export async function startBlueskyAuthorization(
  opts: BlueskyOAuthOptions,
  identifier: string,
): Promise<{ authorizeUrl: string; pending: PendingBlueskyAuthorization }> {
  if (!opts.client.scope.split(' ').includes('atproto'))
    throw refuse('scope_missing', 'the client must ask for the atproto scope.');
  const identity = await resolveBlueskyIdentity(identifier, opts);
  const issuer = await discoverIssuer(identity.pdsUrl, opts);
  const meta = await fetchAuthServerMetadata(issuer, opts);
  const pending: PendingBlueskyAuthorization = {
    state: randomToken(24),
    codeVerifier: randomToken(48),
    dpopJwk: newDpopKey(),
    issuer,
    ...identity,
  };
  const signer = new DpopSigner(pending.dpopJwk);
  const params = {
    response_type: 'code',
    redirect_uri: opts.client.redirectUri,
    scope: opts.client.scope,
    state: pending.state,
    code_challenge: sha256b64url(pending.codeVerifier),
    code_challenge_method: 'S256',
    login_hint: identity.handle ?? identity.did,
  };
  const par = await postToAs(
    opts,
    meta,
    meta.pushed_authorization_request_endpoint,
    params,
    signer,
    'pushing the authorization request',
  );
  if (typeof par.request_uri !== 'string')
    throw refuse('malformed_response', `${issuer} answered the PAR without a request_uri.`);
  const authorize = new URL(meta.authorization_endpoint);
  authorize.searchParams.set('client_id', opts.client.clientId);
  authorize.searchParams.set('request_uri', par.request_uri);
  return { authorizeUrl: authorize.toString(), pending: { ...pending, dpopNonce: signer.nonceFor(issuer) } };
}

export interface BlueskyCallbackParams {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

/**
 * The callback: `state` and `iss` must be the ones of the start (https://atproto.com/specs/oauth#authorization-request),
 * then the code is exchanged with DPoP and client authentication (#confidential-client-authentication),
 * and the tokens are checked (#tokens-and-session-lifetime): `sub` is the DID resolved at the start
 * (whose PDS named this issuer), `token_type` DPoP, the scope holds atproto.
 */
export async function finishBlueskyAuthorization(
  opts: BlueskyOAuthOptions,
  pending: PendingBlueskyAuthorization,
  params: BlueskyCallbackParams,
): Promise<BlueskyOAuthSession> {
  if (params.state !== pending.state)
    throw refuse('state_mismatch', 'the callback does not belong to this sign-in (state).');
  if (params.iss !== pending.issuer)
    throw refuse(
      'issuer_mismatch',
      `the callback came from ${String(params.iss).slice(0, 200)}, not ${pending.issuer}.`,
    );
  if (params.error)
    throw refuse(
      'authorization_denied',
      `${params.error}${params.error_description ? `: ${params.error_description.slice(0, 300)}` : ''}.`,
    );
  if (!params.code) throw refuse('malformed_response', 'the callback carries no code.');
  const meta = await fetchAuthServerMetadata(pending.issuer, opts);
  const signer = new DpopSigner(
    asPrivateJwk(pending.dpopJwk),
    pending.dpopNonce ? { [pending.issuer]: pending.dpopNonce } : {},
  );
  const body = {
    grant_type: 'authorization_code',
    code: params.code,
    redirect_uri: opts.client.redirectUri,
    code_verifier: pending.codeVerifier,
  };
  const token = await postToAs(opts, meta, meta.token_endpoint, body, signer, 'exchanging the code');
  return sessionOf(token, pending, signer);
}

/** A new access token for a refresh token (single use: the answer carries its replacement), with DPoP. */
export async function refreshBlueskyOAuth(
  opts: BlueskyOAuthOptions,
  session: Pick<BlueskyOAuthSession, 'did' | 'issuer' | 'pdsUrl' | 'refreshToken' | 'dpopJwk' | 'handle'> & {
    dpopNonce?: string;
  },
): Promise<BlueskyOAuthSession> {
  const meta = await fetchAuthServerMetadata(session.issuer, opts);
  const signer = new DpopSigner(
    asPrivateJwk(session.dpopJwk),
    session.dpopNonce ? { [session.issuer]: session.dpopNonce } : {},
  );
  const body = { grant_type: 'refresh_token', refresh_token: session.refreshToken };
  const token = await postToAs(opts, meta, meta.token_endpoint, body, signer, 'renewing the session');
  return sessionOf(token, session, signer);
}

/** Checks a token answer (https://atproto.com/specs/oauth#tokens-and-session-lifetime). */
export function sessionOf(
  token: Record<string, unknown>,
  expected: { did: string; issuer: string; pdsUrl: string; handle?: string; dpopJwk: DpopPrivateJwk },
  signer?: DpopSigner,
): BlueskyOAuthSession {
  if (token.sub !== expected.did)
    throw refuse('sub_mismatch', `the tokens are for ${String(token.sub).slice(0, 200)}, not ${expected.did}.`, true);
  if (typeof token.token_type !== 'string' || token.token_type.toLowerCase() !== 'dpop')
    throw refuse(
      'token_type_invalid',
      `the access token is of type ${String(token.token_type).slice(0, 50)}, not DPoP.`,
    );
  const scope = typeof token.scope === 'string' ? token.scope.split(' ').filter(Boolean) : [];
  if (!scope.includes('atproto')) throw refuse('scope_missing', 'the grant does not hold the atproto scope.', true);
  if (
    typeof token.access_token !== 'string' ||
    !token.access_token ||
    typeof token.refresh_token !== 'string' ||
    !token.refresh_token
  )
    throw refuse('malformed_response', 'the token answer lacks an access or refresh token.');
  const expiresIn = typeof token.expires_in === 'number' && token.expires_in > 0 ? token.expires_in : undefined;
  return {
    did: expected.did,
    handle: expected.handle,
    pdsUrl: expected.pdsUrl,
    issuer: expected.issuer,
    accessToken: token.access_token,
    refreshToken: token.refresh_token,
    expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    scope,
    dpopJwk: expected.dpopJwk,
    dpopNonce: signer?.nonceFor(expected.issuer),
  };
}

/**
 * A form POST to the authorization server with client authentication and a DPoP proof; a 400
 * `use_dpop_nonce` with a DPoP-Nonce header is answered once more with that nonce
 * (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop).
 */
async function postToAs(
  opts: BlueskyOAuthOptions,
  meta: AuthServerMetadata,
  endpoint: string,
  params: Record<string, string>,
  signer: DpopSigner,
  action: string,
): Promise<Record<string, unknown>> {
  const send = netFetch(opts.access, { timeoutMs: opts.timeoutMs });
  for (let attempt = 0; ; attempt++) {
    const body = new URLSearchParams({ ...params, ...clientAuth(opts.client, meta.issuer) });
    let res: Response;
    try {
      res = await send(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          dpop: signer.proof('POST', endpoint),
        },
        body: body.toString(),
      });
    } catch (err) {
      throw new OAuthError(
        `Bluesky could not be reached while ${action} (${(err as Error).message}); it will be tried again.`,
        {
          platform: BLUESKY_PLATFORM,
          transient: !(isNetError(err) && err.kind === 'refused_address'),
          code: isNetError(err) ? err.kind : 'network_error',
          outcomeUnknown: params.grant_type === 'refresh_token',
          cause: err,
        },
      );
    }
    const json = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const fresh = signer.remember(endpoint, res.headers.get('dpop-nonce'));
    if (res.status === 400 && json?.error === 'use_dpop_nonce' && fresh && attempt === 0) continue;
    if (!res.ok || !json) throw oauthErrorFromResponse(BLUESKY_PLATFORM, action, { status: res.status, body: json });
    return json;
  }
}

/**
 * Client authentication: `client_id` alone for a public client; for a confidential one a
 * private_key_jwt client assertion signed with its ES256 key, audience the issuer
 * (https://atproto.com/specs/oauth#confidential-client-authentication).
 */
export function clientAuth(client: BlueskyOAuthClient, issuer: string): Record<string, string> {
  if (!client.clientKey) return { client_id: client.clientId };
  const now = Math.floor(Date.now() / 1000);
  const assertion = signEs256(
    { typ: 'JWT', alg: 'ES256', kid: client.clientKey.kid },
    { iss: client.clientId, sub: client.clientId, aud: issuer, jti: randomToken(16), iat: now, exp: now + 60 },
    client.clientKey,
  );
  return {
    client_id: client.clientId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
  };
}

/** What an OAuth profile keeps beside its tokens: the session's DPoP key, its PDS and its issuer. */
export interface BlueskyOAuthBinding {
  dpopJwk: DpopPrivateJwk;
  pdsUrl: string;
  issuer: string;
}

/** The account an OAuth session reaches, as connections stores a profile. */
export function blueskyOAuthAccount(s: BlueskyOAuthSession): PlatformAccount & { oauth: BlueskyOAuthBinding } {
  const handle = s.handle ?? s.did;
  return {
    platformUserId: s.did,
    handle,
    displayName: handle,
    profileUrl: `https://bsky.app/profile/${s.handle ?? s.did}`,
    profileImageUrl: null,
    credentials: {
      platformUserId: s.did,
      accessToken: s.accessToken,
      refreshToken: s.refreshToken,
      expiresAt: s.expiresAt,
    },
    scopes: s.scope,
    oauth: { dpopJwk: s.dpopJwk, pdsUrl: s.pdsUrl, issuer: s.issuer },
  };
}

/** A refresh of a stored OAuth profile (its refresh token is single use: the answer carries the next one). */
export async function refreshBlueskyOAuthCredentials(
  opts: BlueskyOAuthOptions,
  stored: StoredCredentials,
  binding: BlueskyOAuthBinding,
): Promise<RefreshedCredentials> {
  if (!stored.refreshToken)
    throw refuse('malformed_response', 'the profile keeps no refresh token; connect the account again.', true);
  const s = await refreshBlueskyOAuth(opts, {
    did: stored.platformUserId,
    issuer: binding.issuer,
    pdsUrl: binding.pdsUrl,
    refreshToken: stored.refreshToken,
    dpopJwk: binding.dpopJwk,
  });
  return { accessToken: s.accessToken, refreshToken: s.refreshToken, expiresAt: s.expiresAt, scopes: s.scope };
}
