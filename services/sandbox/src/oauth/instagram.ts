import { Router, urlencoded } from 'express';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import { longLivedToken, userOfToken } from './meta-tokens';
import { avatarUrl, bearerOf, oauthFault, params, wireErrors } from './wire';
import { issueAccessToken, redeemCode } from './tokens';

/**
 * Instagram API with Instagram Login, under `/instagram`: the consent page (instagram.com/oauth/authorize),
 * the short-lived code exchange (api.instagram.com/oauth/access_token, legacy error format), and on
 * graph.instagram.com the long-lived exchange, the refresh and `/me`.
 */
export function instagramOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(
    '/instagram/oauth/authorize',
    authorizeRouter(state, {
      platform: 'instagram',
      clientParam: 'client_id',
      multiple: false,
      denial: { error_reason: 'user_denied' },
    }),
  );

  router.post(
    '/instagram/oauth/access_token',
    urlencoded({ extended: false }),
    oauthFault(state, 'instagram', 'token', 'instagram-legacy'),
    (req, res) => {
      const p = params(req);
      if (p.grant_type !== 'authorization_code')
        return void res
          .status(400)
          .json({ error_type: 'OAuthException', code: 400, error_message: 'Invalid grant_type' });
      if (!p.client_secret)
        return void res
          .status(400)
          .json({ error_type: 'OAuthException', code: 400, error_message: 'Missing client_secret' });
      const code = redeemCode(state, 'instagram', { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
      const { token } = issueAccessToken(state, code.userIds[0], state.oauth.settings.instagram.shortTokenTtlSec);
      res.json({ access_token: token, user_id: code.userIds[0], permissions: code.scopes });
    },
  );
  router.use('/instagram/oauth', wireErrors('instagram-legacy'));

  router.get('/instagram/access_token', oauthFault(state, 'instagram', 'token', 'graph'), (req, res) => {
    res.json(longLivedToken(state, 'instagram', 'exchange', params(req)));
  });
  router.get('/instagram/refresh_access_token', oauthFault(state, 'instagram', 'token', 'graph'), (req, res) => {
    res.json(longLivedToken(state, 'instagram', 'refresh', params(req)));
  });
  router.get('/instagram/me', oauthFault(state, 'instagram', 'profile', 'graph'), (req, res) => {
    const user = userOfToken(state, 'instagram', bearerOf(req));
    res.json({
      id: user.userId,
      user_id: user.userId,
      username: user.handle,
      name: user.handle,
      account_type: 'BUSINESS',
      profile_picture_url: avatarUrl(req, user.userId),
    });
  });
  router.use('/instagram', wireErrors('graph'));
  return router;
}
