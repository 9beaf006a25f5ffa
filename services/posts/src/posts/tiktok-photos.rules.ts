import { AppError, type MediaProbe, type Platform } from '@postbus/contracts';
import { TIKTOK_URL_PROPERTIES_PAGE, isTikTokPullable, mediaKindFromUrl, tiktokPhotoFormat } from '@postbus/platforms';
import type { Problem } from './post-payload.rules';

/** One media item of a post as the rules see it: where it is, and its stored type when it is a mediaId. */
export interface PostMediaItem {
  field: string;
  url: string;
  /** Known for a mediaId (detected from its bytes); absent for a link. */
  contentType?: string;
  /** A mediaId's size; absent for a link. */
  sizeBytes?: number;
  /** A mediaId's ffprobe figures (null when stored before probing); absent for a link. */
  probe?: MediaProbe | null;
}

/**
 * TikTok photo posts are pulled by TikTok itself, never uploaded
 * (https://developers.tiktok.com/doc/content-posting-api-reference-photo-post), so a photo has to
 * be where TikTok may pull it, in a format it takes, when the post is written — not discovered at
 * publish time: JPEG or WebP only, under a URL prefix verified for the app (TIKTOK_PULL_URL_PREFIXES;
 * the media transfer guide, https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide).
 * A stored media's `/files/` link counts when PUBLIC_BASE_URL is under a verified prefix.
 * Videos are not judged here: one outside the prefixes is uploaded in chunks instead.
 */
export function tiktokPhotoProblems(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  pullPrefixes: readonly string[],
): Problem[] {
  if (!platforms.includes('tiktok')) return [];
  const photos = media.filter(isPhoto);
  const problems: Problem[] = [];
  for (const photo of photos) {
    if (tiktokPhotoFormat(photo) === 'other') {
      problems.push({
        code: 'unsupported_photo_format',
        message: `${photo.field} is ${describeType(photo)}: TikTok takes photos as JPEG or WebP only; convert it, or leave TikTok out of this post.`,
        platform: 'tiktok',
        field: photo.field,
      });
    }
  }
  const unverified = photos.filter((p) => !isTikTokPullable(p.url, pullPrefixes));
  if (unverified.length) {
    const where = pullPrefixes.length
      ? `none of the verified prefixes in TIKTOK_PULL_URL_PREFIXES (${pullPrefixes.join(', ')})`
      : 'TIKTOK_PULL_URL_PREFIXES, which lists no verified prefix';
    problems.push({
      code: 'media_url_unverified',
      message:
        `TikTok pulls photos only from URL prefixes verified for the app, and ${unverified.map((p) => `${p.field} (${originOf(p.url)})`).join(', ')} ${unverified.length === 1 ? 'is' : 'are'} under ${where}. ` +
        `Verify the domain or URL prefix in the TikTok developer portal (your app → URL properties: ${TIKTOK_URL_PROPERTIES_PAGE}) and add it to TIKTOK_PULL_URL_PREFIXES, ` +
        'or upload the photos with POST /api/v1/media when PUBLIC_BASE_URL is under a verified prefix.',
      platform: 'tiktok',
      field: unverified[0].field,
    });
  }
  return problems;
}

/** Refuses with the first problem (all of them in details), as the payload rules do. */
export function assertTikTokPhotos(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  pullPrefixes: readonly string[],
): void {
  const problems = tiktokPhotoProblems(platforms, media, pullPrefixes);
  if (problems.length)
    throw new AppError(problems[0].code, problems[0].message, problems.length > 1 ? { problems } : undefined);
}

function isPhoto(item: PostMediaItem): boolean {
  if (item.contentType) return item.contentType.toLowerCase().startsWith('image/');
  return mediaKindFromUrl(item.url) === 'image';
}

function describeType(item: PostMediaItem): string {
  if (item.contentType) return `stored as ${item.contentType.split(';')[0]}`;
  const ext = /\.([a-z0-9]+)$/i.exec(URL.canParse(item.url) ? new URL(item.url).pathname : item.url)?.[1];
  return ext ? `a .${ext.toLowerCase()} image` : 'an image TikTok does not take';
}

/** Where a link points, without its path or query (a stored media link carries a signature). */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'not a URL';
}
