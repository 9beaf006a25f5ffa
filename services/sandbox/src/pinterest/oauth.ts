import { urlencoded, type Router } from 'express';
import { authorizeRouter } from '../oauth/authorize';
import { OAuthProblem } from '../oauth/oauth-problem';
import { checkRefreshToken, issueAccessToken, issueRefreshToken, redeemCode } from '../oauth/tokens';
import type { SandboxState } from '../state';
import { PinterestError } from './wire';

/**
 * Pinterest OAuth (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * the consent page at `/pinterest/oauth/` and `POST /pinterest/v5/oauth/token` with the app's
 * credentials as HTTP Basic (https://developers.pinterest.com/docs/api/v5/oauth-token). With
 * `continuous_refresh=true` a refresh answers a new refresh token as well.
 */
export function pinterestOAuthRoutes(router: Router, state: SandboxState): void {
  router.use('/oauth', authorizeRouter(state, { platform: 'pinterest', clientParam: 'client_id', multiple: false }));
  router.post('/v5/oauth/token', urlencoded({ extended: false }), (req, res) => {
    const fault = state.oauth.takeFault('pinterest', 'token');
    if (fault && !fault.dropAnswer)
      throw new PinterestError(
        fault.status,
        fault.status >= 500 ? 0 : 1,
        `Sandbox injected ${fault.error ?? 'failure'}.`,
      );
    const clientId = basicClientId(req.get('authorization'));
    const p = (req.body ?? {}) as Record<string, string>;
    const settings = state.oauth.settings.pinterest;
    let userId: string;
    let scopes: string[];
    let refreshToken: string;
    try {
      if (p.grant_type === 'authorization_code') {
        const code = redeemCode(state, 'pinterest', { code: p.code, clientId, redirectUri: p.redirect_uri });
        [userId] = code.userIds;
        scopes = code.scopes;
        refreshToken = issueRefreshToken(state, 'pinterest', clientId, userId, scopes).token;
      } else if (p.grant_type === 'refresh_token') {
        const grant = checkRefreshToken(state, 'pinterest', p.refresh_token, clientId);
        userId = grant.userId;
        scopes = grant.scopes ?? [];
        refreshToken =
          p.continuous_refresh === 'true'
            ? issueRefreshToken(state, 'pinterest', clientId, userId, scopes).token
            : grant.token;
      } else throw new PinterestError(400, 1, 'grant_type must be authorization_code or refresh_token.');
    } catch (err) {
      if (err instanceof OAuthProblem) throw new PinterestError(err.status, 1, err.description);
      throw err;
    }
    const access = issueAccessToken(state, userId, settings.accessTokenTtlSec);
    state.pinterest.tokenScopes.set(access.token, scopes);
    const refresh = state.oauth.refreshTokens.get(refreshToken)!;
    if (fault?.dropAnswer) {
      req.socket.destroy();
      return;
    }
    res.json({
      access_token: access.token,
      refresh_token: refreshToken,
      response_type: 'authorization_code',
      token_type: 'bearer',
      expires_in: access.expiresIn,
      refresh_token_expires_in: refresh.expiresAt ? Math.round((refresh.expiresAt - state.now()) / 1000) : undefined,
      scope: scopes.join(' '),
    });
  });
}

/** The client id of `Authorization: Basic base64(id:secret)`; anything else is a 401, as Pinterest answers. */
function basicClientId(header: string | undefined): string {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  const [id, secret] = Buffer.from(encoded ?? '', 'base64')
    .toString('utf8')
    .split(':');
  if (!id || !secret) throw new PinterestError(401, 2, 'Authentication failed: client credentials go as HTTP Basic.');
  return id;
}
