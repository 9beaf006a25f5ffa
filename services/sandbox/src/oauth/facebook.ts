import { Router, type Request } from 'express';
import { GraphError, invalidParameter, invalidToken, missingToken, revokedToken } from '../meta/graph-error';
import type { SandboxState } from '../state';
import { authorizeRouter } from './authorize';
import type { FacebookUserToken } from './oauth-store';
import { avatarUrl, bearerOf, oauthFault, params, wireErrors } from './wire';
import { issueFacebookUserToken, redeemCode } from './tokens';

/**
 * Facebook Login for Pages under `/facebook` and `/facebook/{version}` (the Pages publishing API is `/facebook/{version}`): the consent
 * dialog, `oauth/access_token` (code exchange and fb_exchange_token), `/me/accounts` listing the
 * granted Pages with their Page tokens, and `/me`. A sandbox facebook user is a Page; its token is
 * the Page token the publishing API knows.
 */
export function facebookOAuthRouter(state: SandboxState): Router {
  const router = Router();
  const consent = authorizeRouter(state, {
    platform: 'facebook',
    clientParam: 'client_id',
    multiple: true,
    denial: { error_reason: 'user_denied', error_code: '200' },
  });
  // Facebook Login is versioned like the Graph API (www.facebook.com/v26.0/dialog/oauth); unversioned paths still answer.
  router.use(`/facebook{/:version}/dialog/oauth`, consent);

  router.get(`/facebook{/:version}/oauth/access_token`, oauthFault(state, 'facebook', 'token', 'graph'), (req, res) => {
    const p = params(req);
    const settings = state.oauth.settings.facebook;
    if (!p.client_id) throw invalidParameter('Missing client_id parameter.');
    if (!p.client_secret) throw new GraphError(400, 101, 'Error validating client secret.', { type: 'OAuthException' });
    if (p.grant_type === 'fb_exchange_token') {
      const short = userToken(state, p.fb_exchange_token);
      if (short.clientId !== p.client_id) throw invalidToken();
      const long = issueFacebookUserToken(
        state,
        p.client_id,
        short.personId,
        short.pageIds,
        settings.accessTokenTtlSec,
      );
      return void res.json({ access_token: long.token, token_type: 'bearer', expires_in: long.expiresIn });
    }
    let code;
    try {
      code = redeemCode(state, 'facebook', { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
    } catch (err) {
      throw new GraphError(400, 100, (err as Error).message, { type: 'OAuthException', subcode: 36009 });
    }
    const short = issueFacebookUserToken(
      state,
      p.client_id,
      state.ids.numeric(),
      code.userIds,
      settings.shortTokenTtlSec,
    );
    res.json({ access_token: short.token, token_type: 'bearer', expires_in: short.expiresIn });
  });

  router.get(`/facebook{/:version}/me/accounts`, oauthFault(state, 'facebook', 'profile', 'graph'), (req, res) => {
    const token = userToken(state, bearerOf(req));
    const data = token.pageIds.map((id) => {
      const page = state.users.get(id)!;
      return {
        id: page.userId,
        name: page.handle,
        username: page.handle,
        link: `https://www.facebook.com/${page.handle}`,
        category: 'Creator',
        access_token: page.accessToken,
        tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
        picture: { data: { url: avatarUrl(req, page.userId), is_silhouette: false } },
      };
    });
    res.json({ data, paging: { cursors: { before: 'QVFIUm', after: 'QVFIUn' } } });
  });

  router.get(`/facebook/me`, oauthFault(state, 'facebook', 'profile', 'graph'), (req: Request, res) => {
    const raw = bearerOf(req);
    const person = raw ? state.oauth.facebookTokens.get(raw) : undefined;
    if (person) {
      const token = userToken(state, raw);
      return void res.json({ id: token.personId, name: 'Sandbox Person' });
    }
    if (!raw) throw missingToken();
    const page = state.users.byAccessToken('facebook', raw);
    if (!page) throw invalidToken();
    if (page.revoked) throw revokedToken();
    res.json({ id: page.userId, name: page.handle });
  });

  router.use('/facebook', wireErrors('graph'));
  return router;
}

/** A valid, unexpired user token whose Pages are all still authorized. */
function userToken(state: SandboxState, raw: string | undefined): FacebookUserToken {
  if (!raw) throw missingToken();
  const token = state.oauth.facebookTokens.get(raw);
  if (!token || token.expiresAt <= state.now())
    throw new GraphError(400, 190, 'Error validating access token: Session has expired.', {
      type: 'OAuthException',
      subcode: 463,
    });
  if (token.pageIds.some((id) => state.users.get(id)?.revoked)) throw revokedToken();
  return token;
}
