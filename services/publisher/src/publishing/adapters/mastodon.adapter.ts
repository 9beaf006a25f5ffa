import { randomUUID } from 'node:crypto';
import {
  MASTODON_PLATFORM,
  MediaReader,
  PlatformError,
  assertMastodonStatus,
  createMastodonStatus,
  detectMediaKinds,
  findMastodonStatus,
  getMastodonLimits,
  getMastodonMedia,
  mastodonPermalink,
  parseMastodonUserId,
  probeMedia,
  uploadMastodonMedia,
  type MastodonApiOptions,
  type MastodonFilePart,
  type MastodonLimits,
  type MastodonStatusInput,
  type MediaFetchOptions,
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

interface MastodonCheckpoint extends Checkpoint {
  /** Attachments uploaded so far, in the post's order (harmless: an instance removes unattached media). */
  media?: { id: string; ready: boolean }[];
  /** The status's Idempotency-Key, saved before the status is sent: a retry sends the same one. */
  idempotencyKey?: string;
  /** When that key was saved (epoch ms): past the instance's window, the status is looked up instead. */
  keySavedAt?: number;
}

/** Mastodon remembers an Idempotency-Key for an hour (https://docs.joinmastodon.org/methods/statuses/#create); a retry within 50 minutes relies on it. */
export const MASTODON_KEY_TRUSTED_MS = 50 * 60_000;

/**
 * Mastodon: the instance's own limits read (GET /api/v2/instance), each media item uploaded with
 * its description (POST /api/v2/media) and waited for while the instance processes it, then one
 * status posted (POST /api/v1/statuses) under an Idempotency-Key saved with the attempt before the
 * call. A lost answer is settled by sending the same key again (the instance answers the first
 * status) or, once the key's hour may have passed, by finding the status among the account's own.
 */
export function mastodonAdapter(cfg: AdapterConfig): PlatformAdapter {
  const instances = { baseUrlTemplate: cfg.mastodonInstanceUrl };
  const api = (ctx: PublishContext, timeoutMs = cfg.requestTimeoutMs): MastodonApiOptions => ({
    instances,
    instance: parseMastodonUserId(ctx.creds.platformUserId).instance,
    accessToken: ctx.creds.accessToken,
    timeoutMs,
  });
  const upload = (ctx: PublishContext, limits: MastodonLimits) =>
    uploadMedia(ctx, limits, { api: api(ctx, cfg.uploadTimeoutMs), media: mediaOptions(cfg, MASTODON_PLATFORM) });

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as MastodonCheckpoint;
      if (!cp.media) {
        // https://docs.joinmastodon.org/methods/instance/#v2: this instance's own limits, not only the defaults the post was checked against.
        const limits = await getMastodonLimits(api(ctx));
        assertMastodonStatus({ ...statusInput(ctx, []), mediaIds: ctx.mediaUrls.map(String) }, limits);
        cp = { ...cp, media: await upload(ctx, limits) };
        ctx.progress(cp);
      }
      if (cp.media!.some((m) => !m.ready)) {
        // https://docs.joinmastodon.org/methods/media/#get: url stays null while the instance processes the file.
        const media = await Promise.all(
          cp.media!.map(async (m) =>
            m.ready ? m : { id: m.id, ready: (await getMastodonMedia(api(ctx), m.id)).url !== null },
          ),
        );
        cp = { ...cp, media };
        if (media.some((m) => !m.ready))
          return { kind: 'waiting', checkpoint: cp, what: 'Mastodon was still processing the media' };
      }
      const idempotencyKey = cp.idempotencyKey ?? randomUUID();
      const keySavedAt = cp.keySavedAt ?? Date.now();
      // Durable before the call: a retried or taken-over attempt sends the same key, so the instance answers the first status.
      await ctx.save({ ...cp, idempotencyKey, keySavedAt, phase: 'publishing' });
      const mediaIds = cp.media!.map((m) => m.id);
      // https://docs.joinmastodon.org/methods/statuses/#create
      return postOf(ctx, await createMastodonStatus(api(ctx), idempotencyKey, statusInput(ctx, mediaIds)));
    },

    /**
     * Within the key's hour, sending the same Idempotency-Key again is safe (the instance answers the
     * status it made, or makes it once). Past it, the account's recent statuses are searched first.
     */
    async resolve(ctx) {
      const cp = ctx.checkpoint as MastodonCheckpoint;
      if (!cp.idempotencyKey || cp.keySavedAt === undefined) return { kind: 'unknown' };
      if (Date.now() - cp.keySavedAt < MASTODON_KEY_TRUSTED_MS)
        return { kind: 'continue', checkpoint: withoutPhase(cp) };
      const { accountId } = parseMastodonUserId(ctx.creds.platformUserId);
      const { status, spoilerText, mediaIds } = statusInput(
        ctx,
        (cp.media ?? []).map((m) => m.id),
      );
      // https://docs.joinmastodon.org/methods/accounts/#statuses and https://docs.joinmastodon.org/methods/statuses/#source
      const found = await findMastodonStatus(api(ctx), accountId, new Date(cp.keySavedAt), {
        status,
        spoilerText,
        mediaIds,
      });
      if (found) return postOf(ctx, found);
      const { idempotencyKey: _key, keySavedAt: _at, ...rest } = withoutPhase(cp);
      return { kind: 'continue', checkpoint: rest };
    },
  };
}

/** The status's id and its page: the instance's `url`, else `https://{instance}/@{username}/{id}`. */
function postOf(ctx: PublishContext, status: { id: string; url: string | null }) {
  const { instance } = parseMastodonUserId(ctx.creds.platformUserId);
  return published(status.id, status.url ?? mastodonPermalink(instance, ctx.creds.handle.split('@')[0], status.id));
}

/** The status the post asks for, from its caption and platformMeta.mastodon. */
function statusInput(ctx: PublishContext, mediaIds: string[]): MastodonStatusInput {
  const meta = metaFor(ctx.job.platformMeta, MASTODON_PLATFORM);
  const poll = meta.poll as { options?: unknown; expiresIn?: unknown; multiple?: unknown } | undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    status: ctx.job.caption,
    mediaIds,
    spoilerText: text(meta.spoilerText),
    visibility: text(meta.visibility) as MastodonStatusInput['visibility'],
    language: text(meta.language),
    sensitive: typeof meta.sensitive === 'boolean' ? meta.sensitive : undefined,
    ...(poll &&
      Array.isArray(poll.options) && {
        poll: {
          options: poll.options.map(String),
          expiresIn: Number(poll.expiresIn),
          multiple: poll.multiple === true,
        },
      }),
  };
}

/** Each media item checked against the instance's own sizes and uploaded with its description, in order. */
async function uploadMedia(
  ctx: PublishContext,
  limits: MastodonLimits,
  via: { api: MastodonApiOptions; media: MediaFetchOptions },
): Promise<NonNullable<MastodonCheckpoint['media']>> {
  const urls = ctx.mediaUrls;
  if (!urls.length) return [];
  const { instance } = via.api;
  if (urls.length > limits.maxMediaAttachments)
    throw refuse(
      `A status on ${instance} carries at most ${limits.maxMediaAttachments} media; this one has ${urls.length}.`,
      'too_many_media',
    );
  const kinds = await detectMediaKinds(urls, via.media);
  const alts = metaFor(ctx.job.platformMeta, MASTODON_PLATFORM).altTexts;
  const out: NonNullable<MastodonCheckpoint['media']> = [];
  for (const [i, url] of urls.entries()) {
    const info = await probeMedia(url, via.media);
    const max = kinds[i] === 'video' ? limits.videoSizeLimit : limits.imageSizeLimit;
    if (info.size > max) {
      throw refuse(
        `A Mastodon ${kinds[i]} on ${instance} is at most ${max.toLocaleString('en')} bytes; media ${i + 1} is ${info.size.toLocaleString('en')}.`,
        'media_too_large',
      );
    }
    const alt: unknown = Array.isArray(alts) ? alts[i] : undefined;
    // The cover frame is made from the post's first media: it goes with that video only.
    const thumbnail = i === 0 && kinds[i] === 'video' ? await coverImage(ctx, limits, via.media) : undefined;
    // https://docs.joinmastodon.org/methods/media/#v2: `file`, `description`, and `thumbnail` (a video's preview image).
    const attachment = await uploadMastodonMedia(via.api, {
      bytes: await readWhole(url, info.size, via.media),
      contentType: info.contentType,
      filename: `media-${i + 1}.${kinds[i] === 'video' ? 'mp4' : 'jpg'}`,
      description: typeof alt === 'string' && alt ? alt : undefined,
      thumbnail,
    });
    out.push({ id: attachment.id, ready: attachment.url !== null });
  }
  return out;
}

/**
 * The post's cover frame as the video's `thumbnail`, when it has one that can be read and fits the
 * instance's image size; otherwise none, and the instance makes its own preview (a cover is never a
 * reason to fail the post).
 */
async function coverImage(
  ctx: PublishContext,
  limits: MastodonLimits,
  media: MediaFetchOptions,
): Promise<MastodonFilePart | undefined> {
  if (!ctx.coverUrl) return undefined;
  try {
    const cover = await probeMedia(ctx.coverUrl, media);
    if (!cover.contentType.startsWith('image/') || cover.size > limits.imageSizeLimit) return undefined;
    const bytes = await readWhole(ctx.coverUrl, cover.size, media);
    return { bytes, contentType: cover.contentType, filename: 'thumbnail.jpg' };
  } catch {
    return undefined;
  }
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: MASTODON_PLATFORM, transient: false, code });
}

/** The media's bytes, at most `size` of them (already checked against the instance's cap): uploads are sent whole. */
async function readWhole(url: string, size: number, opts: MediaFetchOptions): Promise<Uint8Array> {
  const reader = await MediaReader.open(url, 0, opts);
  try {
    return new Uint8Array(await new Response(reader.chunk(size)).arrayBuffer());
  } finally {
    await reader.close();
  }
}
