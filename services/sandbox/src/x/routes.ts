import express, { Router, type Request } from 'express';
import type { Logger } from '@postbus/kit';
import { X_IMAGES_MAX, X_TEXT_MAX } from '@postbus/contracts';
import { xTextLength } from '@postbus/platforms';
import { rawMultipart } from '../multipart';
import { platformLatency } from '../platform-settings';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { countCall, invalidRequest, passFault, send, xErrorHandler, xUser, XProblemError } from './http';
import { assertAttachable, xMediaRoutes } from './media';
import { xOAuthRouter } from './oauth';
import type { XPostRecord } from './store';

/**
 * The X API v2 under `/x` (https://docs.x.com/x-api): OAuth 2.0 with PKCE, `GET /2/users/me`,
 * `POST /2/tweets` (280 weighted characters, up to 4 images or one video or GIF, replies to an
 * existing post, duplicate text refused), `GET /2/users/{id}/tweets` and the media upload v2
 * endpoints, each answering x-rate-limit-* headers. Fault operations: posts `publish`, reads
 * `read`, plus those of src/x/media.ts; a fault's reason `UsageCapExceeded`,
 * `client-not-enrolled` or `CreditsDepleted` answers as X does when the app's plan is the limit.
 */
export function xRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  // OAuth calls carry codes and refresh tokens: served before the request log, never recorded.
  router.use(xOAuthRouter(state));
  const l = state.x.limits;
  router.post(
    ['/2/media/upload', '/2/media/upload/:id/append'],
    rawMultipart(Math.max(l.imageMaxBytes, l.chunkMaxBytes) + 64 * 1024),
    // The JSON form carries the bytes in base64: 4/3 of them.
    express.json({ limit: Math.ceil((Math.max(l.imageMaxBytes, l.chunkMaxBytes) * 4) / 3) + 64 * 1024 }),
  );
  router.use(express.json({ limit: '64kb' }));
  router.use(
    recordRequests(state.requests, 'x', () => state.now()),
    platformLatency(() => state.settingsFor('x').latencyMs),
  );
  xMediaRoutes(router, state);
  userRoutes(router, state);
  postRoutes(router, state);
  router.use((req) => {
    throw new XProblemError(404, 'Not Found Error', `The sandbox has no X route ${req.method} ${req.path}.`);
  });
  router.use(xErrorHandler(logger));
  return router;
}

function userRoutes(router: Router, state: SandboxState): void {
  // https://docs.x.com/x-api/users/get-my-user
  router.get('/2/users/me', (req: Request, res) => {
    const user = xUser(state, req, ['users.read']);
    if (!passFault(state, 'read', res)) return;
    countCall(state, res, `${user.userId} me`, 75);
    const asked = req.query['user.fields'];
    const fields = typeof asked === 'string' ? asked.split(',') : [];
    send(state, res, 200, {
      data: {
        id: user.userId,
        name: user.handle,
        username: user.handle,
        ...(fields.includes('profile_image_url') && {
          profile_image_url: `https://pbs.twimg.com/profile_images/${user.userId}/sandbox_normal.png`,
        }),
      },
    });
  });

  // https://docs.x.com/x-api/users/get-posts
  router.get('/2/users/:id/tweets', (req: Request<{ id: string }>, res) => {
    const user = xUser(state, req, ['tweet.read', 'users.read']);
    if (!passFault(state, 'read', res)) return;
    countCall(state, res, `${user.userId} timeline`, 900);
    const max = Number(req.query.max_results ?? 10);
    if (!Number.isInteger(max) || max < 5 || max > 100) throw invalidRequest('max_results must be 5 to 100.');
    const since = req.query.start_time;
    const start = typeof since === 'string' ? Date.parse(since) : 0;
    if (Number.isNaN(start)) throw invalidRequest('start_time must be an RFC 3339 time.');
    const posts = [...state.x.posts.values()]
      .filter((p) => p.userId === req.params.id && Date.parse(p.createdAt) >= start)
      .reverse()
      .slice(0, max);
    send(state, res, 200, { data: posts.map((p) => tweetBody(state, p)), meta: { result_count: posts.length } });
  });
}

function postRoutes(router: Router, state: SandboxState): void {
  // https://docs.x.com/x-api/posts/create-post
  router.post('/2/tweets', (req: Request, res) => {
    const user = xUser(state, req, ['tweet.read', 'tweet.write', 'users.read']);
    if (!passFault(state, 'publish', res)) return;
    countCall(state, res, `${user.userId} tweets`, state.x.limits.postsPerWindow);
    const post = checkPost(state, user.userId, (req.body ?? {}) as Record<string, unknown>);
    const record: XPostRecord = {
      ...post,
      id: state.x.nextId(),
      userId: user.userId,
      username: user.handle,
      createdAt: new Date(state.now()).toISOString(),
    };
    state.x.posts.set(record.id, record);
    for (const id of record.mediaIds) state.x.media.get(id)!.usedBy = record.id;
    state.published.record({
      platform: 'x',
      id: record.id,
      userId: user.userId,
      handle: user.handle,
      text: record.text,
      mediaUrls: [],
      mediaType: record.mediaIds.length ? state.x.media.get(record.mediaIds[0])!.category : 'text',
      containerId: null,
      permalink: `https://x.com/${user.handle}/status/${record.id}`,
      createdAt: record.createdAt,
      bytes: record.mediaIds.reduce((n, id) => n + state.x.media.get(id)!.totalBytes, 0),
      details: { inReplyTo: record.inReplyTo, mediaIds: record.mediaIds },
    });
    send(state, res, 201, { data: { id: record.id, text: record.text } });
  });
}

function tweetBody(state: SandboxState, p: XPostRecord): Record<string, unknown> {
  const keys = p.mediaIds.map((id) => {
    const c = state.x.media.get(id)?.category;
    return `${c === 'tweet_image' ? 3 : c === 'tweet_gif' ? 16 : 7}_${id}`;
  });
  return {
    id: p.id,
    text: p.text.replace(/https?:\/\/\S+/g, () => `https://t.co/${p.id.slice(-10)}`),
    created_at: p.createdAt,
    ...(keys.length && { attachments: { media_keys: keys } }),
    ...(p.inReplyTo && { referenced_tweets: [{ type: 'replied_to', id: p.inReplyTo }] }),
  };
}

/** What X refuses in a new post: length, media count and mix, media not ready, an unknown parent, a duplicate. */
function checkPost(state: SandboxState, userId: string, b: Record<string, unknown>) {
  const text = typeof b.text === 'string' ? b.text : '';
  const mediaIds = ((b.media as { media_ids?: unknown } | undefined)?.media_ids ?? []) as unknown[];
  if (!Array.isArray(mediaIds) || mediaIds.some((m) => typeof m !== 'string'))
    throw invalidRequest('media.media_ids must be strings.');
  const ids = mediaIds as string[];
  if (!text && !ids.length) throw invalidRequest('You must specify text or media.');
  if (xTextLength(text) > X_TEXT_MAX)
    throw invalidRequest(`Your Tweet text is too long (${xTextLength(text)} of ${X_TEXT_MAX} characters).`);
  if (ids.length > X_IMAGES_MAX) throw invalidRequest(`media.media_ids: size must be between 1 and ${X_IMAGES_MAX}.`);
  const media = ids.map((id) => assertAttachable(state, userId, id));
  if (media.some((m) => m.category !== 'tweet_image') && media.length > 1)
    throw invalidRequest('A post carries one video or GIF alone, or up to 4 images.');
  const inReplyTo = (b.reply as { in_reply_to_tweet_id?: unknown } | undefined)?.in_reply_to_tweet_id;
  if (inReplyTo !== undefined && (typeof inReplyTo !== 'string' || !state.x.posts.has(inReplyTo)))
    throw invalidRequest('reply.in_reply_to_tweet_id names no visible post.');
  const duplicate = [...state.x.posts.values()].some(
    (p) => p.userId === userId && text && p.text === text && !ids.length,
  );
  if (duplicate)
    throw new XProblemError(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.', {
      type: 'about:blank',
    });
  return { text, mediaIds: ids, inReplyTo: inReplyTo ?? null };
}
