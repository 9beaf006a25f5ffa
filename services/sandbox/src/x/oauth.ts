import { Router, urlencoded, type Request } from 'express';
import type { SandboxState } from '../state';
import { authorizeRouter } from '../oauth/authorize';
import { OAuthProblem, invalidClient, invalidRequest } from '../oauth/oauth-problem';
import { checkRefreshToken, issueAccessToken, issueRefreshToken, redeemCode } from '../oauth/tokens';
import { oauthFault, params, wireErrors } from '../oauth/wire';

/** `Authorization: Basic base64(client_id:client_secret)` of a confidential client (RFC 6749 2.3.1). */
function basicClient(req: Request): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  if (!m) return undefined;
  const [id, secret] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
  return id && secret ? { id: decodeURIComponent(id), secret: decodeURIComponent(secret) } : undefined;
}

/**
 * X OAuth 2.0 (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code): the
 * consent page at `/i/oauth2/authorize` (PKCE required), the token endpoint `/2/oauth2/token`
 * (confidential client by HTTP Basic; authorization_code with code_verifier, refresh_token rotated
 * when offline.access was granted). Fault operation `token`.
 */
export function xOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use('/i/oauth2/authorize', (req, _res, next) => {
    const q = req.method === 'GET' ? req.query : {};
    // X refuses an authorization request without PKCE.
    if (req.method === 'GET' && (!q.code_challenge || !q.code_challenge_method))
      throw new OAuthProblem('invalid_request', 'code_challenge and code_challenge_method are required.', 400);
    next();
  });
  router.use(
    '/i/oauth2/authorize',
    authorizeRouter(state, { platform: 'x', clientParam: 'client_id', multiple: false }),
  );

  router.post(
    '/2/oauth2/token',
    urlencoded({ extended: false }),
    oauthFault(state, 'x', 'token', 'flat'),
    (req, res) => {
      const p = params(req);
      const client = basicClient(req);
      if (!client) throw invalidClient('Missing valid authorization header.');
      if (p.client_id && p.client_id !== client.id)
        throw invalidClient('client_id does not match the authorization header.');
      const settings = state.oauth.settings.x;
      let userId: string;
      let scopes: string[];
      let refreshToken: string | undefined;
      if (p.grant_type === 'authorization_code') {
        if (!p.code_verifier) throw invalidRequest('Missing required parameter [code_verifier].');
        const code = redeemCode(state, 'x', {
          code: p.code,
          clientId: client.id,
          redirectUri: p.redirect_uri,
          codeVerifier: p.code_verifier,
        });
        userId = code.userIds[0];
        scopes = code.scopes;
        if (scopes.includes('offline.access'))
          refreshToken = issueRefreshToken(state, 'x', client.id, userId, scopes).token;
      } else if (p.grant_type === 'refresh_token') {
        const grant = checkRefreshToken(state, 'x', p.refresh_token, client.id);
        userId = grant.userId;
        scopes = grant.scopes ?? [];
        if (settings.rotateRefreshTokens) {
          grant.active = false;
          refreshToken = issueRefreshToken(state, 'x', client.id, userId, scopes).token;
        } else refreshToken = grant.token;
      } else throw invalidRequest('grant_type must be authorization_code or refresh_token.');
      const access = issueAccessToken(state, userId, settings.accessTokenTtlSec);
      state.x.tokenScopes.set(access.token, scopes);
      res.json({
        token_type: 'bearer',
        expires_in: access.expiresIn,
        access_token: access.token,
        scope: scopes.join(' '),
        ...(refreshToken && { refresh_token: refreshToken }),
      });
    },
  );
  router.use('/2/oauth2', wireErrors('flat'));
  router.use('/i/oauth2', wireErrors('flat'));
  return router;
}
