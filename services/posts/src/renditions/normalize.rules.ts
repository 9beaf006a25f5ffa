import {
  checkMediaRules,
  fixableByRendition,
  renditionContentType,
  renditionPreset,
  type TargetSettings,
} from '@postbus/platforms';
import type { NormalizeOption, Platform, PostPayload } from '@postbus/contracts';
import type { PostMediaItem } from '../posts/tiktok-photos.rules';

/** A rendition one platform's posts need: the preset media makes it for, and what it will be. */
export interface RenditionNeed {
  preset: string;
  contentType: 'video/mp4' | 'image/jpeg';
}

/** The post's `normalize` for one platform: platformMeta.<platform>.normalize over the post's own; undefined when off. */
export function normalizeOptionOf(
  payload: Pick<PostPayload, 'normalize' | 'platformMeta'>,
  platform: Platform,
): { trim: boolean } | undefined {
  const perPlatform = (
    payload.platformMeta as Record<string, { normalize?: NormalizeOption } | undefined> | undefined
  )?.[platform]?.normalize;
  const option = perPlatform ?? payload.normalize;
  if (option === undefined || option === false) return undefined;
  return { trim: typeof option === 'object' && option.trim === true };
}

/**
 * The platforms whose copy of the post carries a rendition instead of the stored media: those
 * asked to normalize, where the mediaId breaks the platform's rules (checkMediaRules) and every
 * rule broken is one a rendition mends (fixableByRendition). A media that already fits is
 * published as it is; one a rendition cannot mend (an image for YouTube, a video too short, a
 * video too long without trim) is left to the ordinary check, which refuses it.
 */
export function renditionsNeeded(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  payload: Pick<PostPayload, 'normalize' | 'platformMeta'>,
): Map<Platform, RenditionNeed> {
  const needs = new Map<Platform, RenditionNeed>();
  const stored = media.find((m) => m.field === 'mediaId' && m.contentType && m.sizeBytes !== undefined && m.probe);
  if (!stored) return needs;
  const settings = (payload.platformMeta ?? {}) as TargetSettings;
  for (const platform of new Set(platforms)) {
    const option = normalizeOptionOf(payload, platform);
    if (!option) continue;
    const breaks = checkMediaRules(
      platform,
      { contentType: stored.contentType!, sizeBytes: stored.sizeBytes!, probe: stored.probe! },
      { items: media.length, settings },
    );
    if (!breaks.length || !breaks.every((b) => fixableByRendition(b, option))) continue;
    const target = breaks[0].target!;
    // Only a video that is too long is cut: the same media asked with and without trim is one rendition otherwise.
    const trim = option.trim && breaks.some((b) => b.rule === 'duration');
    needs.set(platform, { preset: renditionPreset(target, { trim }), contentType: renditionContentType(target) });
  }
  return needs;
}
