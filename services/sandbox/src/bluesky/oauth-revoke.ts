import type { Request, Response } from 'express';
import type { SandboxState } from '../state';
import { authenticateClient, compareClientAuth } from './oauth-client-auth';
import { asClientError, resolveClient } from './oauth-clients';
import { checkDpopProof } from './oauth-dpop';
import { bodyFields, oauthHeaders, originOf } from './oauth-http';
import { verifyHs256 } from './oauth-jose';
import { AtprotoOAuthError, invalidRequest } from './oauth-store';

/** The session a refresh token or an access token of this server belongs to. */
function sessionIdOf(state: SandboxState, token: string): string | undefined {
  const store = state.blueskyOAuth;
  const byRefresh = store.refreshTokens.get(token);
  if (byRefresh) return byRefresh;
  const jti = verifyHs256(store.tokenSecret, token)?.payload.jti;
  return typeof jti === 'string' ? jti.split('.')[0] : undefined;
}

/**
 * POST /bluesky/oauth/revoke (RFC 7009, as the reference server serves it): the client authenticates
 * as on the token endpoint (DPoP included); a token of its own session ends that session. An unknown
 * or foreign token is answered 200 all the same (RFC 7009 2.2).
 */
export async function revokeToken(state: SandboxState, req: Request, res: Response): Promise<void> {
  const store = state.blueskyOAuth;
  oauthHeaders(res, store.authorizationNonces.next());
  const body = bodyFields(req);
  if (!body.client_id) throw invalidRequest('Client credentials missing: "client_id" is required');
  if (!body.token) throw invalidRequest('Invalid request payload: "token" is required');
  const proof = checkDpopProof(req, { nonces: store.authorizationNonces, replays: store.replays, nowMs: state.now() });
  const client = await resolveClient(body.client_id, store.rules).catch((err) => {
    throw asClientError(err, body.client_id);
  });
  const clientAuth = authenticateClient(store, client, body, proof, { issuer: originOf(req), nowMs: state.now() });
  const session = store.sessions.get(sessionIdOf(state, body.token) ?? '');
  if (session) {
    try {
      compareClientAuth(client, clientAuth, proof, session);
      store.deleteSession(session.id);
    } catch (err) {
      if (!(err instanceof AtprotoOAuthError)) throw err;
    }
  }
  res.json({});
}
