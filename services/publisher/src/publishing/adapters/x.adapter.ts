import {
  MediaReader,
  PlatformError,
  X_CHUNK_MAX_BYTES,
  X_PLATFORM,
  appendXUpload,
  assertXPost,
  createXPost,
  finalizeXUpload,
  findXPost,
  getXUploadStatus,
  initializeXUpload,
  probeMedia,
  uploadXImage,
  xMediaCategory,
  xMediaMaxBytes,
  xPermalink,
  xProcessingFailure,
  type MediaFetchOptions,
  type XApiOptions,
  type XMediaCategory,
} from '@postbus/platforms';
import type { AdapterConfig } from './adapter-config';
import { mediaOptions, withoutPhase } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface XCheckpoint extends Checkpoint {
  /** Media uploaded so far, in the post's order (harmless: X drops media no post uses within a day). */
  media?: { id: string; ready: boolean }[];
  /** When POST /2/tweets was about to be sent (epoch ms): a lost answer is looked up among the user's posts since. */
  sentAt?: number;
}

/**
 * X: each media item uploaded (an image in one call, a GIF or video in 5 MB chunks:
 * initialize → append → finalize), a video waited for while X processes it, then one
 * `POST /2/tweets`. X takes no idempotency key, so the time of the call is saved before it is
 * sent; a lost answer is settled by reading the user's own posts since then before anything is sent again.
 */
export function xAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext, timeoutMs = cfg.requestTimeoutMs): XApiOptions => ({
    baseUrl: cfg.xApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs,
  });

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as XCheckpoint;
      if (!cp.media) {
        assertXPost({ text: ctx.job.caption, mediaIds: ctx.mediaUrls });
        cp = { ...cp, media: await uploadMedia(ctx, api(ctx, cfg.uploadTimeoutMs), mediaOptions(cfg, X_PLATFORM)) };
        ctx.progress(cp);
      }
      if (cp.media!.some((m) => !m.ready)) {
        const media = [];
        for (const m of cp.media!) {
          if (m.ready) {
            media.push(m);
            continue;
          }
          // https://docs.x.com/x-api/media/get-media-upload-status
          const state = await getXUploadStatus(api(ctx), m.id);
          if (state.state === 'failed') throw xProcessingFailure(state);
          media.push({ id: m.id, ready: state.state === 'succeeded' || state.state === 'ready' });
        }
        cp = { ...cp, media };
        if (media.some((m) => !m.ready))
          return { kind: 'waiting', checkpoint: cp, what: 'X was still processing the video' };
      }
      // Durable before the call: a taken-over attempt looks for the post instead of sending it again.
      await ctx.save({ ...cp, sentAt: Date.now(), phase: 'publishing' });
      // https://docs.x.com/x-api/posts/create-post
      const post = await createXPost(api(ctx), { text: ctx.job.caption, mediaIds: cp.media!.map((m) => m.id) });
      return published(post.id, xPermalink(ctx.creds.handle, post.id));
    },

    /** The user's posts since the call (https://docs.x.com/x-api/users/get-posts): there, or safe to send again. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as XCheckpoint;
      if (cp.sentAt === undefined) return { kind: 'unknown' };
      const found = await findXPost(api(ctx), ctx.creds.platformUserId, new Date(cp.sentAt), {
        text: ctx.job.caption,
        mediaIds: (cp.media ?? []).map((m) => m.id),
      });
      if (found) return published(found.id, xPermalink(ctx.creds.handle, found.id));
      const { sentAt: _at, ...rest } = withoutPhase(cp);
      return { kind: 'continue', checkpoint: rest };
    },
  };
}

/** Each item checked against X's size for its kind and uploaded, in order. */
async function uploadMedia(
  ctx: PublishContext,
  api: XApiOptions,
  media: MediaFetchOptions,
): Promise<NonNullable<XCheckpoint['media']>> {
  const infos = await Promise.all(ctx.mediaUrls.map((url) => probeMedia(url, media)));
  const categories = infos.map((i) => xMediaCategory(i.contentType));
  if (categories.length > 1 && categories.some((c) => c !== 'tweet_image'))
    throw refuse('An X post carries one video or GIF alone, or up to 4 images.', 'mixed_media');
  const out: NonNullable<XCheckpoint['media']> = [];
  for (const [i, url] of ctx.mediaUrls.entries()) {
    const { size, contentType } = infos[i];
    const category = categories[i];
    if (size > xMediaMaxBytes(category))
      throw refuse(
        `X takes a ${category.replace('tweet_', '')} of at most ${xMediaMaxBytes(category).toLocaleString('en')} bytes; media ${i + 1} is ${size.toLocaleString('en')}.`,
        'media_too_large',
      );
    if (category === 'tweet_image') {
      // https://docs.x.com/x-api/media/media-upload
      const state = await uploadXImage(api, { bytes: await readWhole(url, size, media), contentType });
      out.push({ id: state.id, ready: true });
      continue;
    }
    out.push(await uploadInChunks(api, url, { size, contentType, category }, media));
  }
  return out;
}

/** A GIF or video: initialize, the bytes in 5 MB appends read from one pass over the link, finalize. */
async function uploadInChunks(
  api: XApiOptions,
  url: string,
  file: { size: number; contentType: string; category: XMediaCategory },
  media: MediaFetchOptions,
): Promise<{ id: string; ready: boolean }> {
  // https://docs.x.com/x-api/media/initialize-media-upload
  const id = await initializeXUpload(api, {
    contentType: file.contentType,
    totalBytes: file.size,
    category: file.category,
  });
  const reader = await MediaReader.open(url, 0, media);
  try {
    for (let offset = 0, segment = 0; offset < file.size; offset += X_CHUNK_MAX_BYTES, segment += 1) {
      const length = Math.min(X_CHUNK_MAX_BYTES, file.size - offset);
      const bytes = new Uint8Array(await new Response(reader.chunk(length)).arrayBuffer());
      // https://docs.x.com/x-api/media/append-media-upload
      await appendXUpload(api, id, segment, bytes);
    }
  } finally {
    await reader.close();
  }
  // https://docs.x.com/x-api/media/finalize-media-upload
  const state = await finalizeXUpload(api, id);
  if (state.state === 'failed') throw xProcessingFailure(state);
  return { id, ready: state.state === 'ready' || state.state === 'succeeded' };
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: X_PLATFORM, transient: false, code });
}

/** An image's bytes, at most `size` of them (already checked against X's cap): it is sent in one call. */
async function readWhole(url: string, size: number, opts: MediaFetchOptions): Promise<Uint8Array> {
  const reader = await MediaReader.open(url, 0, opts);
  try {
    return new Uint8Array(await new Response(reader.chunk(size)).arrayBuffer());
  } finally {
    await reader.close();
  }
}
