import { Router, urlencoded } from 'express';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import { invalidClient, invalidRequest } from './oauth-problem';
import { oauthFault, params, wireErrors } from './wire';
import { checkRefreshToken, issueAccessToken, issueRefreshToken, redeemCode } from './tokens';

/**
 * LinkedIn's 3-legged OAuth under `/linkedin/oauth/v2`: the consent page (`/authorization`) and the
 * token endpoint (`/accessToken`: authorization_code, and refresh_token for apps approved for
 * programmatic refresh, the refresh token kept as it is):
 * https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow,
 * https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens.
 * The member's profile (`/linkedin/v2/userinfo`) is served by src/linkedin.
 */
export function linkedinOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(
    '/linkedin/oauth/v2/authorization',
    authorizeRouter(state, { platform: 'linkedin', clientParam: 'client_id', multiple: false }),
  );
  router.post(
    '/linkedin/oauth/v2/accessToken',
    urlencoded({ extended: false }),
    recordRequests(state.requests, 'linkedin', () => state.now()),
    oauthFault(state, 'linkedin', 'token', 'flat'),
    (req, res) => {
      const p = params(req);
      const settings = state.oauth.settings.linkedin;
      if (!p.client_id || !p.client_secret) throw invalidClient('client_id and client_secret are required.');
      let userId: string;
      let scopes: string[];
      let refreshToken: string | undefined;
      if (p.grant_type === 'authorization_code') {
        const code = redeemCode(state, 'linkedin', {
          code: p.code,
          clientId: p.client_id,
          redirectUri: p.redirect_uri,
        });
        userId = code.userIds[0];
        scopes = code.scopes;
        if (settings.issueRefreshToken)
          refreshToken = issueRefreshToken(state, 'linkedin', p.client_id, userId, scopes).token;
      } else if (p.grant_type === 'refresh_token') {
        const grant = checkRefreshToken(state, 'linkedin', p.refresh_token, p.client_id);
        userId = grant.userId;
        scopes = grant.scopes ?? ['w_member_social'];
        // The refresh token is not replaced: its lifetime keeps counting down from the first grant.
        refreshToken = grant.token;
      } else throw invalidRequest('grant_type must be authorization_code or refresh_token.');
      const access = issueAccessToken(state, userId, settings.accessTokenTtlSec);
      const refresh = refreshToken ? state.oauth.refreshTokens.get(refreshToken) : undefined;
      res.json({
        access_token: access.token,
        expires_in: access.expiresIn,
        ...(refresh && {
          refresh_token: refresh.token,
          refresh_token_expires_in: refresh.expiresAt
            ? Math.round((refresh.expiresAt - state.now()) / 1000)
            : undefined,
        }),
        // LinkedIn lists the granted scopes comma-separated.
        scope: scopes.join(','),
        token_type: 'Bearer',
      });
    },
  );
  router.use('/linkedin/oauth', wireErrors('flat'));
  return router;
}
