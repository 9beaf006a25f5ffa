import { Router, urlencoded, type RequestHandler } from 'express';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import { OAuthProblem, invalidClient, invalidRequest } from './oauth-problem';
import { avatarUrl, bearerOf, oauthFault, params, wireErrors } from './wire';
import { checkRefreshToken, issueAccessToken, issueRefreshToken, redeemCode } from './tokens';

/**
 * Google OAuth for YouTube: the consent page (`/google/o/oauth2/v2/auth`), the token endpoint
 * (`/google/token`: authorization_code with PKCE, refresh_token without a new refresh token), and
 * the YouTube Data API's `GET /youtube/v3/channels?mine=true`. A sandbox youtube user is a channel.
 */
export function googleOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(
    '/google/o/oauth2/v2/auth',
    authorizeRouter(state, { platform: 'youtube', clientParam: 'client_id', multiple: false }),
  );

  router.post(
    '/google/token',
    urlencoded({ extended: false }),
    oauthFault(state, 'youtube', 'token', 'flat'),
    exchangeToken(state),
  );
  router.use('/google', wireErrors('flat'));

  router.get('/youtube/v3/channels', oauthFault(state, 'youtube', 'profile', 'google-api'), listMyChannel(state));
  router.use('/youtube/v3/channels', wireErrors('google-api'));
  return router;
}

/** `POST /google/token`: authorization_code (with PKCE) or refresh_token; a refresh never returns a new refresh token. */
function exchangeToken(state: SandboxState): RequestHandler {
  return (req, res) => {
    const p = params(req);
    const settings = state.oauth.settings.youtube;
    if (!p.client_id || !p.client_secret) throw invalidClient('The OAuth client was not found.');
    if (p.grant_type === 'authorization_code') {
      const code = redeemCode(state, 'youtube', {
        code: p.code,
        clientId: p.client_id,
        redirectUri: p.redirect_uri,
        codeVerifier: p.code_verifier,
      });
      const access = issueAccessToken(state, code.userIds[0], settings.accessTokenTtlSec);
      const refresh = settings.issueRefreshToken
        ? issueRefreshToken(state, 'youtube', p.client_id, code.userIds[0]).token
        : undefined;
      return void res.json({
        access_token: access.token,
        expires_in: access.expiresIn,
        refresh_token: refresh,
        scope: code.scopes.join(' '),
        token_type: 'Bearer',
      });
    }
    if (p.grant_type === 'refresh_token') {
      const grant = checkRefreshToken(state, 'youtube', p.refresh_token, p.client_id);
      const access = issueAccessToken(state, grant.userId, settings.accessTokenTtlSec);
      return void res.json({
        access_token: access.token,
        expires_in: access.expiresIn,
        scope: 'https://www.googleapis.com/auth/youtube.upload',
        token_type: 'Bearer',
      });
    }
    throw invalidRequest('Invalid grant_type.');
  };
}

/** `GET /youtube/v3/channels?mine=true`: the channel the access token belongs to. */
function listMyChannel(state: SandboxState): RequestHandler {
  return (req, res) => {
    const token = bearerOf(req);
    const user = token ? state.users.byAccessToken('youtube', token) : undefined;
    if (!user || user.revoked)
      throw new OAuthProblem(
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        401,
      );
    if (params(req).mine !== 'true')
      throw new OAuthProblem(
        'missingRequiredParameter',
        'No filter selected. Expected one of: mine, id, forHandle.',
        400,
      );
    const thumb = avatarUrl(req, user.userId);
    res.json({
      kind: 'youtube#channelListResponse',
      etag: 'sandbox',
      pageInfo: { totalResults: 1, resultsPerPage: 1 },
      items: [
        {
          kind: 'youtube#channel',
          etag: 'sandbox',
          id: user.userId,
          snippet: {
            title: user.handle,
            description: '',
            customUrl: `@${user.handle.toLowerCase()}`,
            publishedAt: user.createdAt,
            thumbnails: { default: { url: thumb, width: 88, height: 88 } },
          },
        },
      ],
    });
  };
}
