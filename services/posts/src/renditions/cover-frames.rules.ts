import { COVER_RULES, coverOffsetMs, coverPreset, mediaTargetOf } from '@postbus/platforms';
import type { Platform, PostPayload } from '@postbus/contracts';
import type { PostMediaItem } from '../posts/tiktok-photos.rules';
import { normalizeOptionOf, type RenditionNeed } from './normalize.rules';

/** The platformMeta field in which a post gives its own cover image, per platform. */
const COVER_GIVEN: Partial<Record<Platform, string>> = {
  instagram: 'coverUrl',
  facebook: 'coverUrl',
  youtube: 'thumbnailUrl',
};

/** The platformMeta field naming the offset of the cover frame, per platform. */
const COVER_OFFSET: Partial<Record<Platform, string>> = {
  instagram: 'thumbOffsetMs',
};

/**
 * The cover frames a post's platforms get: for each platform asked to normalize whose target
 * takes a cover image (COVER_RULES `image`) and for which the post gives none, one JPEG of the
 * stored video at the offset the post names, or a tenth of the way in. A platform that takes
 * only an offset (TikTok's video_cover_timestamp_ms) gets no image: the offset goes as given.
 */
export function coverFramesNeeded(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  payload: Pick<PostPayload, 'normalize' | 'platformMeta'>,
): Map<Platform, RenditionNeed> {
  const needs = new Map<Platform, RenditionNeed>();
  const video = media.find((m) => m.field === 'mediaId' && m.probe?.kind === 'video');
  if (!video?.probe) return needs;
  const meta = (payload.platformMeta ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const platform of new Set(platforms)) {
    if (!normalizeOptionOf(payload, platform)) continue;
    const target = mediaTargetOf(platform, 'video', media.length, meta);
    if (!target || COVER_RULES[target]?.how !== 'image') continue;
    const own = meta[platform] ?? {};
    const given = COVER_GIVEN[platform];
    if (given && own[given] !== undefined) continue;
    const offsetField = COVER_OFFSET[platform];
    const asked = offsetField && typeof own[offsetField] === 'number' ? own[offsetField] : undefined;
    const offset = coverOffsetMs(video.probe, asked);
    if (offset === undefined) continue;
    needs.set(platform, { preset: coverPreset(target, offset), contentType: 'image/jpeg' });
  }
  return needs;
}
