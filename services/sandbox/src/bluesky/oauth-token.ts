import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { SandboxState } from '../state';
import { authenticateClient, compareClientAuth } from './oauth-client-auth';
import { asClientError, resolveClient, type AtprotoClient } from './oauth-clients';
import { checkDpopProof, type DpopProof } from './oauth-dpop';
import { bodyFields, oauthHeaders, originOf } from './oauth-http';
import { signHs256 } from './oauth-jose';
import { invalidGrant, LIFETIMES, type ClientAuth, type OAuthSession } from './oauth-store';

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'password', 'client_credentials'];
const VERIFIER = /^[a-zA-Z0-9._~-]{43,128}$/;

interface TokenContext {
  state: SandboxState;
  client: AtprotoClient;
  clientAuth: ClientAuth;
  proof: DpopProof | null;
  issuer: string;
}

/** The request's shape (the reference token request schema): a known grant type and its fields, else invalid_grant. */
function checkPayload(body: Record<string, string>): void {
  if (!body.client_id) throw invalidGrant('Client credentials missing: "client_id" is required');
  if (!GRANT_TYPES.includes(body.grant_type))
    throw invalidGrant('Invalid request payload: "grant_type" must be a supported grant type');
  if (body.grant_type === 'authorization_code') {
    if (!body.code) throw invalidGrant('Invalid request payload: "code" is required');
    if (!body.redirect_uri) throw invalidGrant('Invalid request payload: "redirect_uri" is required');
    if (body.code_verifier !== undefined && !VERIFIER.test(body.code_verifier))
      throw invalidGrant('Invalid request payload: "code_verifier" must be 43 to 128 unreserved characters');
  }
  if (body.grant_type === 'refresh_token' && !body.refresh_token)
    throw invalidGrant('Invalid request payload: "refresh_token" is required');
}

/**
 * POST /bluesky/oauth/token: authorization_code (the code once, same client and key, PKCE S256) and
 * refresh_token (single use: a spent one revokes the session). Answers DPoP-bound tokens with
 * `sub` = the account's DID and the granted `scope`.
 */
export async function exchangeToken(state: SandboxState, req: Request, res: Response): Promise<void> {
  const store = state.blueskyOAuth;
  oauthHeaders(res, store.authorizationNonces.next());
  const body = bodyFields(req);
  checkPayload(body);
  const proof = checkDpopProof(req, { nonces: store.authorizationNonces, replays: store.replays, nowMs: state.now() });
  const client = await resolveClient(body.client_id, store.rules).catch((err) => {
    throw asClientError(err, body.client_id);
  });
  const issuer = originOf(req);
  const clientAuth = authenticateClient(store, client, body, proof, { issuer, nowMs: state.now() });
  if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token')
    throw invalidGrant(`Grant type "${body.grant_type}" is not supported by the server`);
  if (!client.metadata.grant_types.includes(body.grant_type))
    throw invalidGrant(`"${body.grant_type}" grant type is not allowed for this client`);
  const ctx: TokenContext = { state, client, clientAuth, proof, issuer };
  const session = body.grant_type === 'authorization_code' ? redeemCode(ctx, body) : refresh(ctx, body.refresh_token);
  res.json(tokenResponse(ctx, session));
}

function redeemCode(ctx: TokenContext, body: Record<string, string>): OAuthSession {
  const store = ctx.state.blueskyOAuth;
  const code = body.code;
  if (!/^cod-[0-9a-f]{64}$/.test(code)) throw invalidGrant('Invalid code');
  const request = [...store.requests.values()].find((r) => r.code === code);
  if (!request) {
    // A code used again: the session it made is revoked (https://atproto.com/specs/oauth#proof-key-for-code-exchange-pkce).
    const earlier = store.redeemedCodes.get(code);
    if (earlier) store.deleteSession(earlier);
    throw invalidGrant('Invalid code');
  }
  store.requests.delete(request.id);
  if (request.expiresAt < ctx.state.now()) throw invalidGrant('This code has expired');
  compareClientAuth(ctx.client, ctx.clientAuth, ctx.proof, request);
  const p = request.params;
  if (p.redirect_uri !== body.redirect_uri)
    throw invalidGrant('The redirect_uri parameter must match the one used in the authorization request');
  if (!body.code_verifier) throw invalidGrant('code_verifier is required');
  if (body.code_verifier.length < 43) throw invalidGrant('code_verifier too short');
  const computed = createHash('sha256').update(body.code_verifier).digest();
  if (!Buffer.from(p.code_challenge, 'base64').equals(computed)) throw invalidGrant('Invalid code_verifier');
  if (!store.replays.unique(`CodeChallenge ${p.code_challenge}`, LIFETIMES.codeChallengeMs * 1.1))
    throw invalidGrant('Code challenge already used');
  return store.createSession({
    did: request.did!,
    clientId: ctx.client.id,
    clientAuth: ctx.clientAuth,
    confidential: ctx.client.confidential,
    dpopJkt: request.dpopJkt,
    scope: p.scope,
    code,
  });
}

function refresh(ctx: TokenContext, token: string): OAuthSession {
  const store = ctx.state.blueskyOAuth;
  if (!/^ref-[0-9a-f]{64}$/.test(token)) throw invalidGrant('Invalid refresh token');
  const session = store.sessions.get(store.refreshTokens.get(token) ?? '');
  if (!session) throw invalidGrant('Invalid refresh token');
  if (session.refreshToken !== token) {
    // Refresh tokens are single use: a spent one coming back means it leaked, and ends the session.
    store.deleteSession(session.id);
    throw invalidGrant('Refresh token replayed');
  }
  try {
    compareClientAuth(ctx.client, ctx.clientAuth, ctx.proof, session);
    const now = ctx.state.now();
    const sessionMs = session.confidential ? LIFETIMES.confidentialSessionMs : LIFETIMES.publicSessionMs;
    const refreshMs = session.confidential ? LIFETIMES.confidentialRefreshMs : LIFETIMES.publicRefreshMs;
    if (now - session.createdAt > sessionMs) throw invalidGrant('Session expired');
    if (now - session.updatedAt > refreshMs) throw invalidGrant('Refresh token expired');
    const user = ctx.state.users.list('bluesky').find((u) => ctx.state.bluesky.didOf(u) === session.did);
    if (!user || user.revoked) throw invalidGrant('Session revoked');
  } catch (err) {
    store.deleteSession(session.id);
    throw err;
  }
  store.rotate(session);
  return session;
}

/** `token_type: DPoP`, the access token bound to the session's key (`cnf.jkt`), `sub` and `scope` as atproto requires. */
function tokenResponse(ctx: TokenContext, session: OAuthSession) {
  const { state } = ctx;
  const store = state.blueskyOAuth;
  const now = state.now();
  const sessionMs = session.confidential ? LIFETIMES.confidentialSessionMs : LIFETIMES.publicSessionMs;
  const lifetimeMs = Math.min(store.rules.accessTokenTtlSec * 1000, session.createdAt + sessionMs - now);
  if (lifetimeMs <= 250) throw invalidGrant('Session expired');
  const iat = Math.floor(now / 1000);
  const exp = Math.floor((now + lifetimeMs) / 1000);
  const accessToken = signHs256(
    store.tokenSecret,
    { typ: 'at+jwt' },
    {
      iss: ctx.issuer,
      aud: `did:web:${encodeURIComponent(new URL(ctx.issuer).host)}`,
      sub: session.did,
      scope: session.scope,
      client_id: session.clientId,
      cnf: { jkt: session.dpopJkt },
      jti: `${session.id}.${session.refreshToken.slice(4, 12)}`,
      iat,
      exp,
    },
  );
  return {
    access_token: accessToken,
    token_type: 'DPoP',
    refresh_token: session.refreshToken,
    scope: session.scope,
    expires_in: exp - iat,
    sub: session.did,
  };
}
