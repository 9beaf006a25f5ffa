import {
  BLUESKY_IMAGE_MAX_BYTES,
  BLUESKY_IMAGES_MAX,
  BLUESKY_PLATFORM,
  BLUESKY_VIDEO_MAX_BYTES,
  MediaReader,
  PlatformError,
  blueskyApiFor,
  blueskyPermalink,
  createBlueskyPost,
  detectMediaKinds,
  getBlueskyPost,
  newTid,
  probeMedia,
  uploadBlueskyBlob,
  type BlobRef,
  type BlueskyApiOptions,
  type BlueskyPostRecord,
  type MediaFetchOptions,
  type MediaKind,
} from '@postbus/platforms';
import type { PostWarning } from '@postbus/contracts';
import type { AdapterConfig } from './adapter-config';
import { mediaOptions, metaFor, withoutPhase } from './adapter-config';
import { linkCardFor, type LinkCard } from './bluesky-link-card';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface BlueskyCheckpoint extends Checkpoint {
  /** The post's record key, chosen before the write: a write whose answer was lost is found under it. */
  rkey?: string;
  /** Blobs already uploaded (harmless: a blob no record references is dropped by the PDS). */
  blobs?: { blob: BlobRef; kind: MediaKind }[];
  /** The link card, its thumb uploaded (null: none), read once: a retry shows the card the first try read. */
  card?: LinkCard | null;
  /** What the post went out without (the card or its image), reported with the result. */
  warnings?: PostWarning[];
}

/**
 * Bluesky: the post's media uploaded as blobs (com.atproto.repo.uploadBlob) or, without media, a
 * link card read from the linked page (its image a blob too), then one app.bsky.feed.post record written under a record key chosen beforehand and saved with the
 * attempt (com.atproto.repo.createRecord). A lost answer is settled by reading the record under
 * that key (com.atproto.repo.getRecord), so a retry never writes the post twice.
 */
export function blueskyAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext): BlueskyApiOptions => apiOptions(cfg, ctx, cfg.requestTimeoutMs);
  const did = (ctx: PublishContext) => ctx.creds.platformUserId;
  const postOf = (ctx: PublishContext, cp: BlueskyCheckpoint, rkey: string, uri: string) =>
    published(uri, blueskyPermalink(ctx.creds.handle, rkey), cp.warnings);

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as BlueskyCheckpoint;
      if (!cp.blobs) {
        cp = { ...cp, blobs: await uploadMedia(cfg, ctx) };
        ctx.progress(cp);
      }
      if (cp.card === undefined) {
        const { card, warnings } = await linkCardFor(cfg, ctx, api(ctx), Boolean(cp.blobs?.length));
        cp = { ...cp, card, ...(warnings.length && { warnings }) };
        ctx.progress(cp);
      }
      const rkey = cp.rkey ?? newTid();
      // Durable before the write: a taken-over or retried attempt looks the post up under this key.
      await ctx.save({ ...cp, rkey, phase: 'publishing' });
      // https://docs.bsky.app/docs/api/com-atproto-repo-create-record
      const created = await createBlueskyPost(api(ctx), did(ctx), rkey, postRecord(ctx, cp));
      return postOf(ctx, cp, rkey, created.uri);
    },

    /** The record key knows: a record under it means the write went through. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as BlueskyCheckpoint;
      if (!cp.rkey) return { kind: 'unknown' };
      // https://docs.bsky.app/docs/api/com-atproto-repo-get-record
      const found = await getBlueskyPost(api(ctx), did(ctx), cp.rkey);
      if (found) return postOf(ctx, cp, cp.rkey, found.uri);
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}

function apiOptions(cfg: AdapterConfig, ctx: PublishContext, timeoutMs: number): BlueskyApiOptions {
  // An OAuth profile is written to its own PDS with DPoP; an app-password profile to the configured service.
  return blueskyApiFor(ctx.creds, { serviceUrl: cfg.blueskyServiceUrl, timeoutMs, access: cfg.mediaAccess });
}

/** The post's media as blobs, refused before any upload when Bluesky would not take them. */
async function uploadMedia(cfg: AdapterConfig, ctx: PublishContext): Promise<NonNullable<BlueskyCheckpoint['blobs']>> {
  const urls = ctx.mediaUrls;
  if (!urls.length) return [];
  const opts = mediaOptions(cfg, BLUESKY_PLATFORM);
  const kinds = await detectMediaKinds(urls, opts);
  if (kinds.includes('video') && urls.length > 1)
    throw refuse(
      'A Bluesky post carries up to 4 images or one video, not several media with a video among them.',
      'too_many_media',
    );
  if (urls.length > BLUESKY_IMAGES_MAX)
    throw refuse(
      `A Bluesky post carries at most ${BLUESKY_IMAGES_MAX} images; this one has ${urls.length}.`,
      'too_many_media',
    );
  const blobs: NonNullable<BlueskyCheckpoint['blobs']> = [];
  for (const [i, url] of urls.entries()) {
    const info = await probeMedia(url, opts);
    const max = kinds[i] === 'video' ? BLUESKY_VIDEO_MAX_BYTES : BLUESKY_IMAGE_MAX_BYTES;
    if (info.size > max)
      throw refuse(
        `A Bluesky ${kinds[i]} is at most ${max.toLocaleString('en')} bytes; media ${i + 1} is ${info.size.toLocaleString('en')}.`,
        'media_too_large',
      );
    const bytes = await readWhole(url, info.size, opts);
    // https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob
    blobs.push({
      blob: await uploadBlueskyBlob(apiOptions(cfg, ctx, cfg.uploadTimeoutMs), bytes, info.contentType),
      kind: kinds[i],
    });
  }
  return blobs;
}

/** The app.bsky.feed.post record: the caption with one video, up to four images or a link card, alt texts and languages from platformMeta. */
function postRecord(ctx: PublishContext, cp: BlueskyCheckpoint): BlueskyPostRecord {
  const blobs = cp.blobs ?? [];
  const meta = metaFor(ctx.job.platformMeta, BLUESKY_PLATFORM);
  const alts = Array.isArray(meta.altTexts) ? meta.altTexts.map(String) : [];
  const langs = Array.isArray(meta.langs) ? meta.langs.map(String) : undefined;
  const video = blobs.find((b) => b.kind === 'video');
  return {
    text: ctx.job.caption,
    langs,
    ...(video
      ? { video: { blob: video.blob, ...(alts[0] && { alt: alts[0] }) } }
      : blobs.length
        ? { images: blobs.map((b, i) => ({ blob: b.blob, alt: alts[i] ?? '' })) }
        : cp.card
          ? { external: cp.card }
          : {}),
  };
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: BLUESKY_PLATFORM, transient: false, code });
}

/** The media's bytes, at most `size` of them (already checked against the platform's cap): blobs are sent whole. */
async function readWhole(url: string, size: number, opts: MediaFetchOptions): Promise<Uint8Array> {
  const reader = await MediaReader.open(url, 0, opts);
  try {
    return new Uint8Array(await new Response(reader.chunk(size)).arrayBuffer());
  } finally {
    await reader.close();
  }
}
