import type { MediaKind } from '../media/media-kind';
import { instagramInvalidInput } from './errors';

export const INSTAGRAM_CAPTION_MAX = 2200;
export const INSTAGRAM_HASHTAG_MAX = 30;
export const INSTAGRAM_MENTION_MAX = 20;
export const INSTAGRAM_CAROUSEL_MAX = 10;

export interface InstagramPostInput {
  caption: string;
  mediaUrls: string[];
  /** Kind of each media URL, in the same order. */
  kinds: MediaKind[];
  /** Publish as a story (one image or video, no caption). */
  story?: boolean;
  /** Reels: cover image URL. */
  coverUrl?: string;
  /** Reels: cover frame offset in milliseconds. */
  thumbOffsetMs?: number;
  /** Reels: also show in the profile grid; default true. */
  shareToFeed?: boolean;
}

/** The containers a post needs: one (image, reel or story), or carousel items then the CAROUSEL parent. */
export type InstagramPlan =
  | { kind: 'single'; params: Record<string, string> }
  | { kind: 'carousel'; children: Record<string, string>[]; parent: Record<string, string> };

/** Turns a post into container parameters, refusing before any call what Instagram would refuse. */
export function planInstagramPost(input: InstagramPostInput): InstagramPlan {
  assertCaption(input.caption);
  const { mediaUrls, kinds } = input;
  if (mediaUrls.length === 0) {
    throw instagramInvalidInput(
      'missing_media',
      'An Instagram post needs at least one image or video; add media to the post.',
    );
  }
  const caption = input.caption.trim() ? input.caption : undefined;
  if (input.story) {
    if (mediaUrls.length > 1)
      throw instagramInvalidInput(
        'too_many_media',
        'An Instagram story holds one image or video; publish one story per media item.',
      );
    return { kind: 'single', params: { media_type: 'STORIES', ...mediaParam(mediaUrls[0], kinds[0]) } };
  }
  if (mediaUrls.length === 1) {
    if (kinds[0] === 'image')
      return { kind: 'single', params: { image_url: mediaUrls[0], ...(caption && { caption }) } };
    return {
      kind: 'single',
      params: { media_type: 'REELS', video_url: mediaUrls[0], ...(caption && { caption }), ...reelParams(input) },
    };
  }
  if (mediaUrls.length > INSTAGRAM_CAROUSEL_MAX) {
    throw instagramInvalidInput(
      'too_many_media',
      `The post has ${mediaUrls.length} media items; an Instagram carousel holds at most ${INSTAGRAM_CAROUSEL_MAX}.`,
    );
  }
  const children = mediaUrls.map((url, i): Record<string, string> =>
    kinds[i] === 'video'
      ? { media_type: 'VIDEO', video_url: url, is_carousel_item: 'true' }
      : { image_url: url, is_carousel_item: 'true' },
  );
  return { kind: 'carousel', children, parent: { media_type: 'CAROUSEL', ...(caption && { caption }) } };
}

function mediaParam(url: string, kind: MediaKind): Record<string, string> {
  return kind === 'video' ? { video_url: url } : { image_url: url };
}

function reelParams(input: InstagramPostInput): Record<string, string> {
  const out: Record<string, string> = { share_to_feed: String(input.shareToFeed ?? true) };
  if (input.coverUrl) out.cover_url = input.coverUrl;
  if (input.thumbOffsetMs !== undefined) {
    if (!Number.isInteger(input.thumbOffsetMs) || input.thumbOffsetMs < 0) {
      throw instagramInvalidInput(
        'invalid_thumb_offset',
        'The cover frame offset (thumbOffsetMs) must be a whole number of milliseconds, 0 or more.',
      );
    }
    out.thumb_offset = String(input.thumbOffsetMs);
  }
  return out;
}

function assertCaption(caption: string): void {
  const length = [...caption].length;
  if (length > INSTAGRAM_CAPTION_MAX) {
    throw instagramInvalidInput(
      'caption_too_long',
      `The caption is ${length} characters long; Instagram allows at most ${INSTAGRAM_CAPTION_MAX}. Shorten it.`,
    );
  }
  const hashtags = caption.match(/(^|\s)#[\p{L}\p{N}_]+/gu)?.length ?? 0;
  if (hashtags > INSTAGRAM_HASHTAG_MAX) {
    throw instagramInvalidInput(
      'too_many_hashtags',
      `The caption has ${hashtags} hashtags; Instagram allows at most ${INSTAGRAM_HASHTAG_MAX}. Remove some.`,
    );
  }
  const mentions = caption.match(/(^|\s)@[\w.]+/g)?.length ?? 0;
  if (mentions > INSTAGRAM_MENTION_MAX) {
    throw instagramInvalidInput(
      'too_many_mentions',
      `The caption mentions ${mentions} accounts; Instagram allows at most ${INSTAGRAM_MENTION_MAX} @-mentions. Remove some.`,
    );
  }
}
