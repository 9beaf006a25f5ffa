import {
  MediaReader,
  PINTEREST_PLATFORM,
  PlatformError,
  assertPinterestPin,
  createPinterestPin,
  detectMediaKinds,
  findPinterestPin,
  getPinterestMediaStatus,
  pinterestPermalink,
  probeMedia,
  registerPinterestVideo,
  uploadPinterestVideo,
  type MediaFetchOptions,
  type PinterestApiOptions,
  type PinterestMedia,
  type PinterestPinInput,
} from '@postbus/platforms';
import type { AdapterConfig } from './adapter-config';
import { mediaOptions, metaFor, withoutPhase } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface PinterestCheckpoint extends Checkpoint {
  /** The uploaded video (POST /v5/media, then the upload); `ready` once Pinterest says succeeded. */
  video?: { mediaId: string; ready: boolean };
  /** When the pin was sent (epoch ms), saved before POST /v5/pins: a lost answer is looked for on the board from then on. */
  sentAt?: number;
}

/**
 * Pinterest: an image pin (or a carousel of 2–5 images) names its images by URL; a video is
 * registered (POST /v5/media), uploaded to the upload URL Pinterest answers and waited for until
 * it succeeded; then one pin is created on the board in platformMeta.pinterest.boardId. Pinterest
 * takes no idempotency key: a create whose answer was lost is settled by finding the pin among the
 * board's newest ones before anything is sent again.
 */
export function pinterestAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext): PinterestApiOptions => ({
    baseUrl: cfg.pinterestApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs: cfg.requestTimeoutMs,
  });
  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as PinterestCheckpoint;
      const media = mediaOptions(cfg, PINTEREST_PLATFORM);
      const kinds = ctx.mediaUrls.length ? await detectMediaKinds(ctx.mediaUrls, media) : [];
      const isVideo = kinds.includes('video');
      // Checked before any upload: a pin Pinterest would refuse is refused here.
      assertPinterestPin(pinInput(ctx, isVideo ? { kind: 'video', mediaId: '0' } : imagesOf(ctx)));
      if (isVideo && !cp.video) {
        if (ctx.mediaUrls.length !== 1)
          throw refuse('A Pinterest video pin carries one video and nothing else.', 'media_mix');
        cp = {
          ...cp,
          video: { mediaId: await uploadVideo(api(ctx), ctx.mediaUrls[0], media, cfg.uploadTimeoutMs), ready: false },
        };
        ctx.progress(cp);
      }
      if (cp.video && !cp.video.ready) {
        // https://developers.pinterest.com/docs/api/v5/media-get
        const status = await getPinterestMediaStatus(api(ctx), cp.video.mediaId);
        if (status === 'failed')
          throw refuse(
            'Pinterest could not process the video; check its format (MP4 or MOV, H.264) and length.',
            'video_failed',
          );
        if (status !== 'succeeded')
          return { kind: 'waiting', checkpoint: cp, what: 'Pinterest was still processing the video' };
        cp = { ...cp, video: { ...cp.video, ready: true } };
      }
      const input = pinInput(ctx, cp.video ? videoOf(ctx, cp.video.mediaId) : imagesOf(ctx));
      // Durable before the call: a retried or taken-over attempt looks for this pin first.
      await ctx.save({ ...cp, sentAt: cp.sentAt ?? Date.now(), phase: 'publishing' });
      // https://developers.pinterest.com/docs/api/v5/pins-create
      const pin = await createPinterestPin(api(ctx), input);
      return published(pin.id, pinterestPermalink(pin.id));
    },

    async resolve(ctx) {
      const cp = ctx.checkpoint as PinterestCheckpoint;
      if (cp.sentAt === undefined) return { kind: 'unknown' };
      const input = pinInput(ctx, cp.video ? videoOf(ctx, cp.video.mediaId) : imagesOf(ctx));
      // https://developers.pinterest.com/docs/api/v5/boards-list_pins
      const found = await findPinterestPin(api(ctx), new Date(cp.sentAt), input);
      if (found) return published(found.id, pinterestPermalink(found.id));
      const { sentAt: _at, ...rest } = withoutPhase(cp);
      return { kind: 'continue', checkpoint: rest };
    },
  };
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: PINTEREST_PLATFORM, transient: false, code });
}

/** The pin the post asks for, from its caption (the description) and platformMeta.pinterest. */
function pinInput(ctx: PublishContext, media: PinterestMedia): PinterestPinInput {
  const meta = metaFor(ctx.job.platformMeta, PINTEREST_PLATFORM);
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    boardId: text(meta.boardId) ?? '',
    boardSectionId: text(meta.boardSectionId),
    title: text(meta.title) ?? text(ctx.job.title),
    description: text(ctx.job.caption),
    link: text(meta.link),
    altText: text(meta.altText),
    media,
  };
}

function imagesOf(ctx: PublishContext): PinterestMedia {
  if (!ctx.mediaUrls.length) throw refuse('A Pinterest pin needs an image or a video.', 'media_required');
  return ctx.mediaUrls.length === 1
    ? { kind: 'image', url: ctx.mediaUrls[0] }
    : { kind: 'carousel', urls: ctx.mediaUrls };
}

function videoOf(ctx: PublishContext, mediaId: string): PinterestMedia {
  const meta = metaFor(ctx.job.platformMeta, PINTEREST_PLATFORM);
  const cover = typeof meta.coverImageUrl === 'string' ? meta.coverImageUrl : ctx.coverUrl;
  const frame = typeof meta.coverKeyFrameSeconds === 'number' ? meta.coverKeyFrameSeconds : undefined;
  return { kind: 'video', mediaId, coverImageUrl: cover, coverKeyFrameSeconds: frame };
}

/** Registers the video, streams its bytes to Pinterest's upload URL and answers the media id. */
async function uploadVideo(
  api: PinterestApiOptions,
  url: string,
  media: MediaFetchOptions,
  timeoutMs: number,
): Promise<string> {
  const info = await probeMedia(url, media);
  // https://developers.pinterest.com/docs/api/v5/media-create
  const upload = await registerPinterestVideo(api);
  const reader = await MediaReader.open(url, 0, media);
  try {
    await uploadPinterestVideo(
      upload,
      { body: reader.chunk(info.size), size: info.size, contentType: info.contentType },
      { timeoutMs },
    );
  } finally {
    await reader.close();
  }
  return upload.mediaId;
}
