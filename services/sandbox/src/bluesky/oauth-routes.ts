import { Router } from 'express';
import type { SandboxState } from '../state';
import { blueskyAuthorizeRouter } from './oauth-authorize';
import { cors, hideSecrets, oauthErrorHandler } from './oauth-http';
import { pushAuthorizationRequest } from './oauth-par';
import { revokeToken } from './oauth-revoke';
import { exchangeToken } from './oauth-token';

/**
 * The atproto authorization server under `/bluesky/oauth` (https://atproto.com/specs/oauth): PAR,
 * the consent page, the token and revocation endpoints, and an empty JWKS (its tokens are opaque to clients).
 * Mounted inside the Bluesky router, after its request log and body parsers.
 */
export function blueskyOAuthRouter(state: SandboxState): Router {
  const router = Router();
  router.use(hideSecrets);
  router.use(['/par', '/token', '/revoke', '/jwks'], cors);
  router.post('/par', (req, res) => pushAuthorizationRequest(state, req, res));
  // RFC 9126 2.3: PAR takes POST only.
  router.all('/par', (_req, res) => void res.status(405).end());
  router.post('/token', (req, res) => exchangeToken(state, req, res));
  router.post('/revoke', (req, res) => revokeToken(state, req, res));
  router.get('/jwks', (_req, res) => void res.set('cache-control', 'max-age=300').json({ keys: [] }));
  router.use('/authorize', blueskyAuthorizeRouter(state));
  router.use(oauthErrorHandler);
  return router;
}
