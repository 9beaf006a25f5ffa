import { Router, urlencoded, type Request } from 'express';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import { OAuthProblem, invalidClient, invalidRequest } from './oauth-problem';
import { avatarUrl, bearerOf, oauthFault, params, wireErrors } from './wire';
import { checkRefreshToken, issueAccessToken, issueRefreshToken, redeemCode } from './tokens';

/**
 * TikTok Login Kit v2 under `/tiktok`: the consent page (`/v2/auth/authorize/`), the token
 * endpoint (`/v2/oauth/token/`: authorization_code with PKCE, refresh_token with rotation) and
 * `/v2/user/info/`.
 */
export function tiktokOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(
    '/tiktok/v2/auth/authorize',
    authorizeRouter(state, {
      platform: 'tiktok',
      clientParam: 'client_key',
      multiple: false,
      denial: { error_type: 'auth' },
    }),
  );

  router.post(
    '/tiktok/v2/oauth/token',
    urlencoded({ extended: false }),
    oauthFault(state, 'tiktok', 'token', 'flat'),
    (req, res) => {
      const p = params(req);
      const settings = state.oauth.settings.tiktok;
      if (!p.client_key || !p.client_secret) throw invalidClient('client_key and client_secret are required.');
      let userId: string;
      let refreshToken: string;
      let scopes: string[];
      if (p.grant_type === 'authorization_code') {
        const code = redeemCode(state, 'tiktok', {
          code: p.code,
          clientId: p.client_key,
          redirectUri: p.redirect_uri,
          codeVerifier: p.code_verifier,
        });
        userId = code.userIds[0];
        scopes = code.scopes;
        refreshToken = issueRefreshToken(state, 'tiktok', p.client_key, userId, scopes).token;
      } else if (p.grant_type === 'refresh_token') {
        const grant = checkRefreshToken(state, 'tiktok', p.refresh_token, p.client_key);
        userId = grant.userId;
        scopes = grant.scopes ?? ['user.info.basic', 'video.publish'];
        // "The previous refresh token stops working once a new one is issued" (oauth-user-access-token-management).
        if (settings.rotateRefreshTokens) {
          grant.active = false;
          refreshToken = issueRefreshToken(state, 'tiktok', p.client_key, userId, scopes).token;
        } else refreshToken = grant.token;
      } else throw invalidRequest('grant_type must be authorization_code or refresh_token.');
      const access = issueAccessToken(state, userId, settings.accessTokenTtlSec);
      const refresh = state.oauth.refreshTokens.get(refreshToken)!;
      res.json({
        open_id: userId,
        scope: scopes.join(','),
        access_token: access.token,
        expires_in: access.expiresIn,
        refresh_token: refreshToken,
        refresh_expires_in: refresh.expiresAt ? Math.round((refresh.expiresAt - state.now()) / 1000) : undefined,
        token_type: 'Bearer',
      });
    },
  );
  router.use('/tiktok/v2/oauth', wireErrors('flat'));

  router.get('/tiktok/v2/user/info', oauthFault(state, 'tiktok', 'profile', 'tiktok-api'), (req: Request, res) => {
    const token = bearerOf(req);
    const user = token ? state.users.byAccessToken('tiktok', token) : undefined;
    if (!user || user.revoked)
      throw new OAuthProblem('access_token_invalid', 'The access token is invalid or not found in the request.', 401);
    const fields = (params(req).fields ?? 'open_id').split(',');
    const all: Record<string, string> = {
      open_id: user.userId,
      union_id: `u${user.userId}`,
      avatar_url: avatarUrl(req, user.userId),
      display_name: user.handle,
      username: user.handle,
      profile_deep_link: `https://www.tiktok.com/@${user.handle}`,
    };
    const picked = Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
    res.json({ data: { user: picked }, error: { code: 'ok', message: '', log_id: '' } });
  });
  router.use('/tiktok/v2/user', wireErrors('tiktok-api'));
  return router;
}
