import { MEDIA_URLS_MAX, PLATFORM_MEDIA_MAX, type Platform } from '@postbus/contracts';
import { isNetError, parseTargetUrl } from '@postbus/net';
import type { Problem } from './post-payload.rules';

const NAMES: Record<Platform, string> = {
  instagram: 'Instagram',
  threads: 'Threads',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  linkedin: 'LinkedIn',
  x: 'X',
  pinterest: 'Pinterest',
};

/** Settings that are links the publisher or a platform fetches, besides mediaUrls. */
const META_LINKS = [
  ['instagram', 'coverUrl'],
  ['facebook', 'coverUrl'],
  ['youtube', 'thumbnailUrl'],
] as const;

/**
 * The links of a post are fetched later (by the publisher, or by a platform on its behalf), so
 * they are held to what an outbound request may be when the post is written: http or https, no
 * credentials in them, no more items than each platform takes. Where a link points is judged
 * when it is read (@postbus/net), since what a name resolves to can change in between.
 */
export function mediaLinkProblems(b: Record<string, unknown>, platforms: Platform[]): Problem[] {
  const problems: Problem[] = [];
  const mediaUrls = Array.isArray(b.mediaUrls) ? b.mediaUrls : [];
  // beyond the cap the schema refuses the list; naming each link past it would only grow the answer
  const links: [string, unknown][] = mediaUrls.slice(0, MEDIA_URLS_MAX).map((url, i) => [`mediaUrls[${i}]`, url]);
  const meta = (typeof b.platformMeta === 'object' && b.platformMeta !== null ? b.platformMeta : {}) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  for (const [platform, name] of META_LINKS) links.push([`platformMeta.${platform}.${name}`, meta[platform]?.[name]]);
  for (const [field, value] of links) {
    const why = typeof value === 'string' ? refusedLink(value) : undefined;
    if (why)
      problems.push({
        code: 'media_url_refused',
        message: `${field} is refused: ${why}. Link to the file on a public http(s) host, or upload it with POST /api/v1/media.`,
        field,
      });
  }

  const items = mediaUrls.length + (typeof b.mediaId === 'string' && b.mediaId ? 1 : 0);
  for (const platform of new Set(platforms)) {
    const max = PLATFORM_MEDIA_MAX[platform];
    if (items > max) {
      problems.push({
        code: 'validation_error',
        message: `${/^[AEIOU]/.test(NAMES[platform]) ? 'An' : 'A'} ${NAMES[platform]} post takes at most ${max} media item${max === 1 ? '' : 's'}; this one has ${items} (a mediaId counts as one).`,
        platform,
        field: 'mediaUrls',
      });
    }
  }
  return problems;
}

/** Why a link is not one Postbus fetches, or undefined; a string that is no URL at all is left to the schema. */
function refusedLink(raw: string): string | undefined {
  if (!URL.canParse(raw)) return undefined;
  try {
    parseTargetUrl(raw);
    return undefined;
  } catch (err) {
    if (isNetError(err)) return err.message;
    throw err;
  }
}
