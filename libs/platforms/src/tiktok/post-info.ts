import type { TikTokCreatorInfo } from './creator-info';
import { tiktokInvalidInput } from './errors';

export const TIKTOK_VIDEO_TITLE_MAX = 2200;
export const TIKTOK_PHOTO_TITLE_MAX = 90;
export const TIKTOK_PHOTO_DESCRIPTION_MAX = 4000;
export const TIKTOK_PHOTO_MAX = 35;

/** `platformMeta.tiktok` as the post carries it. */
export interface TikTokPostSettings {
  privacyLevel?: string;
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
  commercialContentDisclosure?: boolean;
  brandOrganicOptIn?: boolean;
  brandContentOptIn?: boolean;
  videoCoverTimestampMs?: number;
  isAigc?: boolean;
}

/**
 * `post_info` for a direct post, checked against what creator_info allows: the privacy level
 * must be one of the creator's options, toggles the creator locked stay off, and branded
 * content cannot be private. The video's `title` is its caption; a photo post has both.
 */
export function tiktokPostInfo(
  kind: 'video' | 'photo',
  text: { title: string | null; caption: string },
  settings: TikTokPostSettings,
  creator: TikTokCreatorInfo,
): Record<string, unknown> {
  const privacy = settings.privacyLevel;
  if (!privacy)
    throw tiktokInvalidInput(
      'missing_privacy_level',
      'TikTok posts need platformMeta.tiktok.privacyLevel; choose who may see the post.',
    );
  if (creator.privacyLevelOptions.length && !creator.privacyLevelOptions.includes(privacy)) {
    throw tiktokInvalidInput(
      'privacy_level_option_mismatch',
      `This TikTok account does not allow the privacy level ${privacy}; choose one of ${creator.privacyLevelOptions.join(', ')}.`,
    );
  }
  const disclosure = settings.commercialContentDisclosure === true;
  const brandContent = disclosure && settings.brandContentOptIn === true;
  const brandOrganic = disclosure && settings.brandOrganicOptIn === true;
  if (disclosure && !brandContent && !brandOrganic) {
    throw tiktokInvalidInput(
      'invalid_disclosure',
      'The post discloses commercial content but opts into neither brandOrganicOptIn nor brandContentOptIn; choose one.',
    );
  }
  if (brandContent && privacy === 'SELF_ONLY') {
    throw tiktokInvalidInput(
      'branded_content_private',
      'Branded content cannot be posted privately on TikTok; choose a privacy level other than SELF_ONLY.',
    );
  }
  const common = {
    privacy_level: privacy,
    disable_comment: settings.disableComment === true || creator.commentDisabled,
    brand_content_toggle: brandContent,
    brand_organic_toggle: brandOrganic,
  };
  if (kind === 'photo') {
    const title = text.title ?? '';
    if (title.length > TIKTOK_PHOTO_TITLE_MAX) {
      throw tiktokInvalidInput(
        'title_too_long',
        `The title is ${title.length} characters long; a TikTok photo post title holds at most ${TIKTOK_PHOTO_TITLE_MAX}. Shorten it.`,
      );
    }
    if (text.caption.length > TIKTOK_PHOTO_DESCRIPTION_MAX) {
      throw tiktokInvalidInput(
        'caption_too_long',
        `The caption is ${text.caption.length} characters long; a TikTok photo description holds at most ${TIKTOK_PHOTO_DESCRIPTION_MAX}.`,
      );
    }
    return { title, description: text.caption, ...common, auto_add_music: true };
  }
  const title = text.caption.trim() ? text.caption : (text.title ?? '');
  if (title.length > TIKTOK_VIDEO_TITLE_MAX) {
    throw tiktokInvalidInput(
      'caption_too_long',
      `The caption is ${title.length} characters long as TikTok counts it; TikTok allows at most ${TIKTOK_VIDEO_TITLE_MAX}.`,
    );
  }
  return {
    title,
    ...common,
    disable_duet: settings.disableDuet === true || creator.duetDisabled,
    disable_stitch: settings.disableStitch === true || creator.stitchDisabled,
    ...(settings.videoCoverTimestampMs !== undefined && { video_cover_timestamp_ms: settings.videoCoverTimestampMs }),
    ...(settings.isAigc !== undefined && { is_aigc: settings.isAigc }),
  };
}
