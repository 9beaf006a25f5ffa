import { LINKEDIN_IMAGES_MAX, LINKEDIN_TEXT_MAX, type ErrorCode } from '@postbus/contracts';
import { linkedInTextLength, mediaKindFromUrl } from '@postbus/platforms';

interface LinkedInInput {
  caption: string;
  meta: Record<string, Record<string, unknown> | undefined>;
  hasMedia: boolean;
  mediaCount: number;
  /** The post's media links (a mediaId's kind is judged when the media is resolved). */
  mediaUrls: string[];
}

const DOCUMENT = /\.(pdf|docx?|pptx?)$/i;

/**
 * A LinkedIn post: commentary of at most 3,000 characters
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api), and
 * content of 1–20 images (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api),
 * one video or one document, not a mix; at most one alt text per image.
 */
export function linkedinRules(
  p: LinkedInInput,
  refuse: (message: string, field?: string, code?: ErrorCode) => void,
): void {
  const length = linkedInTextLength(p.caption);
  if (length > LINKEDIN_TEXT_MAX)
    refuse(`LinkedIn posts are at most ${LINKEDIN_TEXT_MAX} characters (got ${length}).`, 'caption');
  if (!p.caption.trim() && !p.hasMedia) refuse('LinkedIn posts need text or media.', 'caption');
  if (p.mediaCount > LINKEDIN_IMAGES_MAX)
    refuse(`A LinkedIn post carries at most ${LINKEDIN_IMAGES_MAX} images (got ${p.mediaCount}).`, 'mediaUrls');
  const kinds = p.mediaUrls.map((url) => (DOCUMENT.test(url.split('?')[0]) ? 'document' : mediaKindFromUrl(url)));
  if (p.mediaCount > 1 && kinds.some((k) => k === 'video' || k === 'document'))
    refuse('A LinkedIn post carries images (up to 20), or one video, or one document: not a mix.', 'mediaUrls');
  const m = p.meta.linkedin ?? {};
  if (Array.isArray(m.altTexts) && m.altTexts.length > p.mediaCount)
    refuse(
      `platformMeta.linkedin.altTexts has ${m.altTexts.length} entries for ${p.mediaCount} media item(s); give at most one per image, in order.`,
      'platformMeta.linkedin.altTexts',
    );
}
