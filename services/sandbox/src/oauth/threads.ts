import { Router, urlencoded } from 'express';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import { longLivedToken } from './meta-tokens';
import { invalidClient, invalidRequest } from './oauth-problem';
import { oauthFault, params, wireErrors } from './wire';
import { issueAccessToken, redeemCode } from './tokens';

/**
 * Threads OAuth under `/threads`: the consent page (threads.net/oauth/authorize) and, on
 * graph.threads.net, the code exchange, the long-lived exchange and the refresh. `/me` is the
 * Threads API's own (`/threads/v1.0/me`).
 */
export function threadsOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(
    '/threads/oauth/authorize',
    authorizeRouter(state, {
      platform: 'threads',
      clientParam: 'client_id',
      multiple: false,
      denial: { error_reason: 'user_denied' },
    }),
  );

  router.post(
    '/threads/oauth/access_token',
    urlencoded({ extended: false }),
    oauthFault(state, 'threads', 'token', 'graph'),
    (req, res) => {
      const p = params(req);
      if (p.grant_type !== 'authorization_code') throw invalidRequest('grant_type must be authorization_code');
      if (!p.client_secret) throw invalidClient('client_secret is required');
      const code = redeemCode(state, 'threads', { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
      const { token } = issueAccessToken(state, code.userIds[0], state.oauth.settings.threads.shortTokenTtlSec);
      res.json({ access_token: token, user_id: code.userIds[0] });
    },
  );
  router.get('/threads/access_token', oauthFault(state, 'threads', 'token', 'graph'), (req, res) => {
    res.json(longLivedToken(state, 'threads', 'exchange', params(req)));
  });
  router.get('/threads/refresh_access_token', oauthFault(state, 'threads', 'token', 'graph'), (req, res) => {
    res.json(longLivedToken(state, 'threads', 'refresh', params(req)));
  });
  router.use(['/threads/oauth', '/threads/access_token', '/threads/refresh_access_token'], wireErrors('graph'));
  return router;
}
