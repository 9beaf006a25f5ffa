import { createLogger, type Logger } from '@postbus/kit';
import express, { type Express, type RequestHandler } from 'express';
import { commentsControlRouter } from './comments/control';
import { facebookRepliesRouter, instagramRepliesRouter } from './comments/reply-routes';
import { threadsReplyGate } from './comments/threads-reply-gate';
import { facebookPostCommentsRouter, instagramMediaCommentsRouter } from './comments/post-comment-routes';
import { youtubeCommentThreadsRouter } from './youtube/comment-threads';
import { controlRouter } from './control';
import { mountInsights } from './insights/mount-insights';
import { oauthRouter } from './oauth/routes';
import { SandboxState, type SandboxAppOptions } from './state';
import { threadsRouter } from './threads/routes';
import { facebookGraphRouter, facebookRuploadRouter, facebookVideoRouter } from './facebook/routes';
import { instagramRouter } from './instagram/routes';
import { tiktokRouter, tiktokUploadRouter } from './tiktok/routes';
import { youtubeRouter } from './youtube/routes';
import { blueskyRouter } from './bluesky/routes';
import { blueskyWellKnownRouter } from './bluesky/oauth-discovery';
import { mastodonControlRouter } from './mastodon/mentions';
import { mastodonRouter } from './mastodon/routes';
import { linkedinRouter } from './linkedin/routes';
import { linkedinControlRouter } from './linkedin/control';
import { pinterestRouter, pinterestUploadRouter } from './pinterest/routes';
import { pinterestControlRouter } from './pinterest/control';
import { xRouter } from './x/routes';
import { threadsExtras } from './meta/platform-gate';
import { graphGateRouter, graphVersionGate, retiredVideoHostGate } from './meta/graph-rules';

export type { SandboxAppOptions } from './state';
export { SandboxState } from './state';

/**
 * Where each emulated platform API lives; a client's baseUrl is `${sandboxUrl}${prefix}`, `:version`
 * being the Graph version it calls (v21.0 or later unless `graph.oldestVersion` says otherwise).
 */
export const SANDBOX_PATHS = {
  threads: '/threads/v1.0',
  instagram: '/instagram/:version',
  facebook: '/facebook/:version',
  /** graph-video.facebook.com: retired, refused unless `graph.refuseGraphVideoHost` is false. */
  facebookVideo: '/facebook-video/:version',
  facebookRupload: '/rupload',
  tiktok: '/tiktok',
  tiktokUpload: '/tiktok-upload',
  /** YouTube's upload API is `${url}/youtube/upload/youtube/v3`. */
  youtube: '/youtube',
  /**
   * A Bluesky PDS: XRPC at `${url}/bluesky/xrpc/{nsid}`; its PLC directory at `/bluesky/plc/{did}`, its
   * atproto OAuth server at `/bluesky/oauth/…` with metadata at `${url}/.well-known/oauth-*`.
   */
  bluesky: '/bluesky',
  /** Mastodon instances: `${url}/mastodon/{instance}/api/…` and `/oauth/…`. */
  mastodon: '/mastodon',
  /** LinkedIn: `${url}/linkedin/rest/…`, `/v2/userinfo`, upload URLs under `/dms-uploads`; OAuth at `/linkedin/oauth/v2/…`. */
  linkedin: '/linkedin',
  /** Pinterest API v5 at `${url}/pinterest/v5/…`, its consent page at `/pinterest/oauth/`. */
  pinterest: '/pinterest',
  /** Where Pinterest's video upload_url points (S3 in real life). */
  pinterestUpload: '/pinterest-upload',
  /** The X API v2 and its OAuth 2.0: `${url}/x/2/…`, `${url}/x/i/oauth2/authorize`. */
  x: '/x',
  control: '/__sandbox',
} as const;

export interface CreateSandboxAppOptions extends SandboxAppOptions {
  /** Where unexpected errors are logged; default a winston logger at warn. */
  logger?: Logger;
}

/**
 * The platform sandbox: emulated platform APIs under their own prefixes plus the control API.
 * Each platform is a sibling folder (src/threads/…) mounted here.
 */
export function createSandboxApp(opts: CreateSandboxAppOptions = {}): { app: Express; state: SandboxState } {
  const logger = opts.logger ?? createLogger('sandbox', 'warn');
  const state = new SandboxState(opts);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(
    [SANDBOX_PATHS.instagram, SANDBOX_PATHS.facebook, SANDBOX_PATHS.facebookVideo],
    graphGateRouter(state, logger, graphVersionGate(state)),
  );
  app.use(exceptPlatformApis(oauthRouter(state)));
  app.use(SANDBOX_PATHS.facebookVideo, graphGateRouter(state, logger, retiredVideoHostGate(state)));
  mountInsights(app, state, logger, SANDBOX_PATHS);
  app.use(`${SANDBOX_PATHS.control}/comments`, commentsControlRouter(state));
  app.use(`${SANDBOX_PATHS.control}/pinterest`, pinterestControlRouter(state));
  app.use(`${SANDBOX_PATHS.control}/linkedin`, linkedinControlRouter(state));
  app.use(`${SANDBOX_PATHS.control}/mastodon`, mastodonControlRouter(state));
  app.use(SANDBOX_PATHS.control, controlRouter(state));
  app.use(SANDBOX_PATHS.threads, threadsExtras(state));
  app.use(SANDBOX_PATHS.threads, threadsReplyGate(state, logger));
  app.use(SANDBOX_PATHS.threads, latency(state), threadsRouter(state, logger));
  app.use(SANDBOX_PATHS.instagram, instagramRouter(state, logger));
  app.use(SANDBOX_PATHS.instagram, instagramRepliesRouter(state, logger));
  app.use(SANDBOX_PATHS.instagram, instagramMediaCommentsRouter(state, logger));
  app.use(SANDBOX_PATHS.facebook, facebookGraphRouter(state, logger));
  app.use(SANDBOX_PATHS.facebook, facebookPostCommentsRouter(state, logger));
  app.use(SANDBOX_PATHS.facebook, facebookRepliesRouter(state, logger));
  app.use(SANDBOX_PATHS.facebookVideo, facebookVideoRouter(state, logger));
  app.use(SANDBOX_PATHS.facebookRupload, facebookRuploadRouter(state, logger));
  app.use(SANDBOX_PATHS.tiktok, tiktokRouter(state, logger));
  app.use(SANDBOX_PATHS.tiktokUpload, tiktokUploadRouter(state, logger));
  app.use(SANDBOX_PATHS.youtube, youtubeRouter(state, logger));
  app.use(SANDBOX_PATHS.youtube, youtubeCommentThreadsRouter(state, logger));
  app.use(SANDBOX_PATHS.bluesky, blueskyRouter(state, logger));
  app.use(blueskyWellKnownRouter(state));
  app.use(SANDBOX_PATHS.mastodon, mastodonRouter(state, logger));
  app.use(SANDBOX_PATHS.linkedin, linkedinRouter(state, logger));
  app.use(SANDBOX_PATHS.pinterest, pinterestRouter(state, logger));
  app.use(SANDBOX_PATHS.pinterestUpload, pinterestUploadRouter(state));
  app.use(SANDBOX_PATHS.x, xRouter(state, logger));

  app.use((req, res) => {
    res.status(404).json({ error: `The sandbox has no route ${req.method} ${req.path}.`, code: 'not_found' });
  });
  return { app, state };
}

/**
 * Path prefixes of the versioned platform APIs. The OAuth emulators live on unversioned paths
 * (`/threads/oauth/…`, `/facebook/dialog/oauth`, `/tiktok/v2/auth/…`, `/youtube/v3/channels`),
 * so an API request skips their dozens of route checks.
 */
const PLATFORM_API_PREFIXES = [
  SANDBOX_PATHS.threads,
  SANDBOX_PATHS.facebookRupload,
  SANDBOX_PATHS.tiktokUpload,
  '/tiktok/v2/post',
  '/youtube/upload',
  SANDBOX_PATHS.bluesky,
  SANDBOX_PATHS.mastodon,
  '/linkedin/rest',
  '/linkedin/v2',
  '/linkedin/dms-uploads',
  SANDBOX_PATHS.pinterest,
  SANDBOX_PATHS.pinterestUpload,
  SANDBOX_PATHS.x,
].map((p) => `${p}/`);
/** Versioned Graph paths, except Facebook Login's (`/facebook/v26.0/dialog/oauth`, `/oauth/access_token`, `/me/accounts`). */
const GRAPH_API_PATH =
  /^\/(?:instagram|facebook|facebook-video)\/v\d+\.\d+\/(?!dialog\/oauth|oauth\/access_token$|me\/accounts$)/;

function exceptPlatformApis(handler: RequestHandler): RequestHandler {
  return (req, res, next) =>
    PLATFORM_API_PREFIXES.some((p) => req.path.startsWith(p)) || GRAPH_API_PATH.test(req.path)
      ? next()
      : handler(req, res, next);
}

/** Delays every platform response by the current latencyMs. */
function latency(state: SandboxState): RequestHandler {
  return async (_req, _res, next) => {
    const ms = state.settings.latencyMs;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    next();
  };
}
