import { Router } from 'express';
import type { SandboxState } from '../state';
import { oauthControlRouter } from './control';
import { facebookOAuthRouter } from './facebook';
import { googleOAuthRouter } from './google';
import { instagramOAuthRouter } from './instagram';
import { linkedinOAuthRouter } from './linkedin';
import { threadsOAuthRouter } from './threads';
import { tiktokOAuthRouter } from './tiktok';

/**
 * The five platforms' authorization servers (consent page, token, refresh, profile), each at the
 * paths its real host uses under the platform's sandbox prefix, plus `/__sandbox/oauth` to drive
 * them. Mounted before the publishing APIs; anything else passes through.
 */
export function oauthRouter(state: SandboxState): Router {
  const router = Router();
  router.use('/__sandbox/oauth', oauthControlRouter(state));
  router.use(instagramOAuthRouter(state));
  router.use(facebookOAuthRouter(state));
  router.use(threadsOAuthRouter(state));
  router.use(tiktokOAuthRouter(state));
  router.use(googleOAuthRouter(state));
  router.use(linkedinOAuthRouter(state));
  return router;
}
