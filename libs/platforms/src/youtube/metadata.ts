import { youtubeInvalidInput } from './errors';
import type { YouTubeVideoMetadata } from './upload';

export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
export const YOUTUBE_PRIVACY_STATUSES = ['public', 'private', 'unlisted'] as const;

/** `platformMeta.youtube` members the upload reads. */
export interface YouTubePostSettings {
  privacyStatus?: string;
  publishAt?: string;
  madeForKids?: boolean;
  containsSyntheticMedia?: boolean;
  tags?: string[];
  categoryId?: string;
}

/** snippet + status for videos.insert, refusing before any call what YouTube would refuse. */
export function youtubeMetadata(
  text: { title: string | null; caption: string },
  settings: YouTubePostSettings,
  defaultPrivacy: string,
): YouTubeVideoMetadata {
  const title = (text.title ?? '').trim();
  if (!title) throw youtubeInvalidInput('missing_title', 'YouTube videos need a title; add one to the post.');
  if ([...title].length > YOUTUBE_TITLE_MAX) {
    throw youtubeInvalidInput(
      'title_too_long',
      `The title is ${[...title].length} characters long; YouTube allows at most ${YOUTUBE_TITLE_MAX}. Shorten it.`,
    );
  }
  if (/[<>]/.test(title))
    throw youtubeInvalidInput('invalid_title', 'YouTube titles cannot contain < or >; remove them from the title.');
  if (/[<>]/.test(text.caption))
    throw youtubeInvalidInput(
      'invalid_description',
      'YouTube descriptions cannot contain < or >; remove them from the caption.',
    );
  const bytes = Buffer.byteLength(text.caption, 'utf8');
  if (bytes > YOUTUBE_DESCRIPTION_MAX_BYTES) {
    throw youtubeInvalidInput(
      'description_too_long',
      `The caption is ${bytes} bytes long; a YouTube description holds at most ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes. Shorten it.`,
    );
  }
  const privacy = settings.privacyStatus ?? defaultPrivacy;
  if (!(YOUTUBE_PRIVACY_STATUSES as readonly string[]).includes(privacy)) {
    throw youtubeInvalidInput(
      'invalid_privacy',
      `platformMeta.youtube.privacyStatus must be public, unlisted or private, not ${JSON.stringify(privacy)}.`,
    );
  }
  if (settings.publishAt && privacy !== 'private') {
    throw youtubeInvalidInput(
      'invalid_publish_at',
      'A YouTube publishAt time needs privacyStatus private (the video turns public at that time).',
    );
  }
  return {
    snippet: {
      title,
      description: text.caption,
      ...(settings.tags?.length && { tags: settings.tags }),
      categoryId: settings.categoryId ?? '22',
    },
    status: {
      privacyStatus: privacy as YouTubeVideoMetadata['status']['privacyStatus'],
      ...(settings.publishAt && { publishAt: settings.publishAt }),
      selfDeclaredMadeForKids: settings.madeForKids === true,
      ...(settings.containsSyntheticMedia !== undefined && { containsSyntheticMedia: settings.containsSyntheticMedia }),
    },
  };
}
