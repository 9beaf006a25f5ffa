import type { Logger } from '@postbus/kit';
import { linkedInPlainText } from '@postbus/platforms';
import express, { Router, type Request, type Response } from 'express';
import { platformLatency } from '../platform-settings';
import { recordRequests, type ReceivedRequest } from '../requests';
import type { SandboxState } from '../state';
import { assetRoutes, LINKEDIN_UPLOAD_PATH } from './assets';
import { assertMayAuthor, organizationRoutes } from './organizations';
import type { LinkedInAsset, LinkedInPostRecord } from './store';
import { errorHandler, LinkedInError, memberOf, passFault, send, unprocessable, versionGate } from './wire';

const VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'];
/** A reserved character of little text not escaped and not part of a mention, a hashtag or a template. */
const MENTION = /^@\[[^\]\\]*\]\(urn:li:(person|organization):[A-Za-z0-9_-]+\)/;
const HASHTAG = /^#[\p{L}\p{N}]/u;
const TEMPLATE = /^\{hashtag\|[#＃]\|[^}\\]+\}/;
const RESERVED = '\\|{}@[]()<>#*_~';

/**
 * LinkedIn under `/linkedin`: `/v2/userinfo` (Sign In with LinkedIn), the versioned `/rest` APIs
 * (posts, images, videos, documents, organizationAcls, organizations) behind the LinkedIn-Version
 * gate, and the upload URLs. A sandbox user created with platform `linkedin` is a member whose
 * control-API token has every scope; `POST /__sandbox/linkedin/organizations` makes it an
 * organization's admin. Fault operations: see assets.ts and organizations.ts; posts `publish`,
 * userinfo `read`.
 */
export function linkedinRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  router.use(
    recordRequests(state.requests, 'linkedin', () => state.now()),
    platformLatency(() => state.settingsFor('linkedin').latencyMs),
  );
  router.use((req, res, next) => {
    const received = res.locals.received as ReceivedRequest | undefined;
    for (const name of ['linkedin-version', 'x-restli-protocol-version']) {
      const value = req.get(name);
      if (received && value) received.headers[name] = value;
    }
    next();
  });
  // https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#api-request-to-retreive-member-details
  router.get('/v2/userinfo', (req: Request, res: Response) => {
    const user = memberOf(state, req);
    if (!passFault(state, 'read', res)) return;
    send(state, res, 200, {
      sub: user.userId,
      name: user.handle,
      given_name: user.handle,
      family_name: '',
      picture: `https://media.licdn.com/dms/image/${user.userId}/profile.jpg`,
      locale: { country: 'US', language: 'en' },
    });
  });
  router.use('/rest', versionGate(state));
  assetRoutes(router, state);
  organizationRoutes(router, state);
  // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#create-a-post
  router.post('/rest/posts', (req: Request, res: Response) => createPost(state, req, res));
  // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#retrieve-posts
  router.get('/rest/posts/:urn', (req: Request, res: Response) => {
    const post = authorsPost(state, req);
    if (!passFault(state, 'read', res)) return;
    send(state, res, 200, postView(post));
  });
  // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#delete-posts
  router.delete('/rest/posts/:urn', (req: Request, res: Response) => {
    const post = authorsPost(state, req);
    post.deletedAt = state.now();
    send(state, res, 204, undefined);
  });
  router.use((req) => {
    if (req.path.startsWith(LINKEDIN_UPLOAD_PATH)) throw new LinkedInError(404, 'NOT_FOUND', 'Unknown upload');
    throw new LinkedInError(404, 'RESOURCE_NOT_FOUND', `No virtual resource found (${req.method} ${req.path})`);
  });
  router.use(errorHandler(logger));
  return router;
}

function createPost(state: SandboxState, req: Request, res: Response): void {
  const user = memberOf(state, req);
  if (!passFault(state, 'publish', res)) return;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const author = typeof b.author === 'string' ? b.author : '';
  if (!author) throw unprocessable('/author :: field is required but not found', 'FIELD_REQUIRED');
  assertMayAuthor(state, user, author);
  const commentary = typeof b.commentary === 'string' ? b.commentary : '';
  checkCommentary(state, commentary);
  const visibility = typeof b.visibility === 'string' ? b.visibility : '';
  if (!VISIBILITIES.includes(visibility))
    throw unprocessable(`/visibility :: "${visibility.slice(0, 20)}" is not an enum symbol`);
  if (visibility === 'CONNECTIONS' && !author.startsWith('urn:li:person:'))
    throw unprocessable('CONNECTIONS visibility is only for member authors');
  const distribution = b.distribution as { feedDistribution?: unknown } | undefined;
  if (!distribution || !['MAIN_FEED', 'NONE'].includes(String(distribution.feedDistribution)))
    throw unprocessable('/distribution/feedDistribution :: field is required but not found', 'FIELD_REQUIRED');
  if (b.lifecycleState !== 'PUBLISHED') throw unprocessable('/lifecycleState :: must be PUBLISHED', 'FIELD_REQUIRED');
  const content = b.content && typeof b.content === 'object' ? (b.content as Record<string, unknown>) : null;
  const assets = contentAssets(state, author, content);
  if (!commentary.trim() && !assets.length) throw unprocessable('A post needs commentary or content');
  const first = state.linkedin.duplicateOf(author, commentary, content);
  if (first) throw unprocessable(`Content is a duplicate of ${first.urn}`, 'DUPLICATE_POST');
  const kind = assets.length > 1 || assets.some((a) => a.kind !== 'image') ? 'ugcPost' : 'share';
  const post: LinkedInPostRecord = {
    urn: `urn:li:${kind}:${state.ids.numeric()}`,
    author,
    userId: user.userId,
    commentary,
    visibility,
    content,
    createdAt: state.now(),
  };
  state.linkedin.posts.set(post.urn, post);
  for (const a of assets) a.postUrn = post.urn;
  recordPublished(state, post, user.handle, assets, b);
  send(state, res, 201, undefined, { 'x-restli-id': post.urn, 'x-linkedin-id': post.urn });
}

/** The post a request names, not deleted, when the caller may act as its author; else LinkedIn's 404 or 403. */
function authorsPost(state: SandboxState, req: Request): LinkedInPostRecord {
  const user = memberOf(state, req);
  const post = state.linkedin.posts.get(String(req.params.urn));
  if (!post || post.deletedAt !== undefined)
    throw new LinkedInError(404, 'RESOURCE_NOT_FOUND', `Not Found: ${String(req.params.urn).slice(0, 80)}`);
  assertMayAuthor(state, user, post.author);
  return post;
}

/** A post as the Posts API answers it (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#post-schema). */
function postView(post: LinkedInPostRecord): Record<string, unknown> {
  return {
    id: post.urn,
    author: post.author,
    commentary: post.commentary,
    visibility: post.visibility,
    lifecycleState: 'PUBLISHED',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    ...(post.content && { content: post.content }),
    isReshareDisabledByAuthor: false,
    createdAt: post.createdAt,
    publishedAt: post.createdAt,
    lastModifiedAt: post.createdAt,
  };
}

/**
 * Commentary is little text of at most 3,000 characters as it reads
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format):
 * every reserved character is escaped unless it makes a mention, a hashtag or a hashtag template.
 */
function checkCommentary(state: SandboxState, commentary: string): void {
  const length = linkedInPlainText(commentary).length;
  if (length > state.linkedin.limits.commentaryMax)
    throw unprocessable(
      `/commentary :: length ${length} exceeds ${state.linkedin.limits.commentaryMax}`,
      'INVALID_LENGTH',
    );
  for (let i = 0; i < commentary.length; i++) {
    const c = commentary[i];
    if (c === '\\' && RESERVED.includes(commentary[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (!RESERVED.includes(c)) continue;
    const rest = commentary.slice(i);
    const element = MENTION.exec(rest) ?? TEMPLATE.exec(rest) ?? (HASHTAG.test(rest) ? ['#'] : null);
    if (!element)
      throw unprocessable(
        `/commentary :: unescaped reserved character '${c}' at ${i} is not valid little text`,
        'INVALID_LITTLE_TEXT',
      );
    i += element[0].length - 1;
  }
}

/** The assets a post's content names, each checked: owned by the author, AVAILABLE, unused; 2–20 images for multiImage. */
function contentAssets(state: SandboxState, author: string, content: Record<string, unknown> | null): LinkedInAsset[] {
  if (!content) return [];
  const l = state.linkedin.limits;
  const media = content.media as { id?: unknown; title?: unknown } | undefined;
  const multi = content.multiImage as { images?: unknown } | undefined;
  let ids: string[];
  if (media && !multi) ids = [typeof media.id === 'string' ? media.id : ''];
  else if (multi && !media) {
    const images = Array.isArray(multi.images) ? (multi.images as { id?: unknown }[]) : [];
    if (images.length < 2 || images.length > l.multiImageMax)
      throw unprocessable(
        `/content/multiImage/images :: a multiImage post has 2 to ${l.multiImageMax} images; got ${images.length}`,
      );
    ids = images.map((i) => (typeof i.id === 'string' ? i.id : ''));
  } else throw unprocessable('/content :: exactly one of media, multiImage is required');
  const assets = ids.map((id) => {
    const asset = state.linkedin.assets.get(id);
    if (!asset) throw unprocessable(`/content :: ${id.slice(0, 80)} is not a known asset`, 'INVALID_CONTENT');
    if (asset.owner !== author)
      throw unprocessable(`/content :: ${id} is not owned by ${author}`, 'INVALID_CONTENT_OWNERSHIP');
    if (asset.status === 'PROCESSING' && asset.availableAt !== null && asset.availableAt <= state.now())
      asset.status = 'AVAILABLE';
    if (asset.status !== 'AVAILABLE')
      throw unprocessable(`/content :: ${id} is ${asset.status}, not AVAILABLE`, 'MEDIA_ASSET_PROCESSING_FAILED');
    if (asset.postUrn) throw unprocessable(`/content :: ${id} is already used by ${asset.postUrn}`, 'INVALID_CONTENT');
    return asset;
  });
  if (multi && assets.some((a) => a.kind !== 'image')) throw unprocessable('/content/multiImage :: images only');
  if (assets[0].kind === 'document' && (typeof media?.title !== 'string' || !media.title.trim()))
    throw unprocessable('/content/media/title :: a document post needs a title', 'FIELD_REQUIRED');
  return assets;
}

function recordPublished(
  state: SandboxState,
  post: LinkedInPostRecord,
  handle: string,
  assets: LinkedInAsset[],
  body: Record<string, unknown>,
): void {
  state.published.record({
    platform: 'linkedin',
    id: post.urn,
    userId: post.userId,
    handle,
    text: linkedInPlainText(post.commentary),
    mediaUrls: assets.map((a) => a.urn),
    mediaType: assets.length > 1 ? 'multiImage' : (assets[0]?.kind ?? 'text'),
    containerId: null,
    permalink: `https://www.linkedin.com/feed/update/${post.urn}/`,
    createdAt: new Date(post.createdAt).toISOString(),
    bytes: assets.reduce((n, a) => n + a.parts.reduce((m, p) => m + (p.bytes ?? 0), 0), 0),
    details: {
      author: post.author,
      commentary: post.commentary,
      visibility: post.visibility,
      content: post.content,
      isReshareDisabledByAuthor: body.isReshareDisabledByAuthor === true,
    },
  });
}
