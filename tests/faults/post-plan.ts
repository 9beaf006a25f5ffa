import type { Platform } from '@postbus/contracts';

/**
 * How the run's posts spread over the platforms, and over how many profiles each, so that no
 * profile meets a platform's own publishing limit (Threads 250 and Instagram 100 a day per
 * profile, TikTok 6 inits a minute per creator) and YouTube's project-wide 100 uploads a day
 * is not used up. Each platform's posts belong to an account of their own.
 */
export const PLAN: { platform: Platform; share: number; profiles: number }[] = [
  { platform: 'threads', share: 0.3, profiles: 8 },
  { platform: 'facebook', share: 0.27, profiles: 5 },
  { platform: 'instagram', share: 0.2, profiles: 8 },
  { platform: 'tiktok', share: 0.11, profiles: 45 },
  // Bluesky: 1,666 records an hour per account (a PDS's write points), far above what a run asks of 3 profiles.
  { platform: 'bluesky', share: 0.03, profiles: 3 },
  // Mastodon: Postbus counts 7 statuses per profile in 30 minutes (`PUBLISHER_RATE_LIMITS`); 8 profiles take 40 posts in one window.
  { platform: 'mastodon', share: 0.02, profiles: 8 },
  // LinkedIn 150 a day, X 100 in 15 minutes, Pinterest 1,000 a day per profile (PUBLISHER_RATE_LIMITS): far above a run's share.
  { platform: 'linkedin', share: 0.02, profiles: 3 },
  { platform: 'x', share: 0.02, profiles: 3 },
  { platform: 'pinterest', share: 0.02, profiles: 3 },
  { platform: 'youtube', share: 0.04, profiles: 4 },
];

/** A platform's account in the run: its key, its profiles, and for Pinterest the board each profile pins to. */
export interface RunAccount {
  apiKey: string;
  profileIds: string[];
  boardIds?: Record<string, string>;
}

export interface PlannedPost {
  /** Appears in the caption and the title: how the sandbox's items are matched to posts. */
  token: string;
  platform: Platform;
  profileId: string;
  /** The key of the account that owns the profile. */
  apiKey: string;
  body: Record<string, unknown>;
}

/** `total` post bodies, platform by platform, their profiles taken in turn. */
export function planPosts(
  total: number,
  run: string,
  accounts: Map<Platform, RunAccount>,
  mediaUrl: string,
): PlannedPost[] {
  const posts: PlannedPost[] = [];
  for (const { platform, share } of PLAN) {
    const count = platform === PLAN.at(-1)!.platform ? total - posts.length : Math.round(total * share);
    const { apiKey, profileIds, boardIds } = accounts.get(platform)!;
    for (let i = 0; i < count; i++) {
      const token = `faults-${run}-${String(posts.length).padStart(4, '0')}`;
      const profileId = profileIds[i % profileIds.length];
      const body = bodyFor(platform, token, profileId, mediaUrl, boardIds?.[profileId]);
      posts.push({ token, platform, profileId, apiKey, body });
    }
  }
  return posts;
}

function bodyFor(
  platform: Platform,
  token: string,
  profileId: string,
  mediaUrl: string,
  boardId: string | undefined,
): Record<string, unknown> {
  const base = {
    platforms: [platform],
    profileIds: [profileId],
    caption: `Fault injection run ${token}`,
    externalId: token,
  };
  switch (platform) {
    case 'instagram':
      return { ...base, mediaUrls: [`${mediaUrl}/${token}.jpg`] };
    case 'tiktok':
      return {
        ...base,
        title: token,
        mediaUrls: [`${mediaUrl}/${token}.mp4`],
        platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
      };
    case 'youtube':
      return { ...base, title: token, mediaUrls: [`${mediaUrl}/${token}.mp4`] };
    case 'pinterest':
      return { ...base, mediaUrls: [`${mediaUrl}/${token}.jpg`], platformMeta: { pinterest: { boardId } } };
    default:
      return base;
  }
}

/** Order in which posts fall due: the platforms interleaved, so each is published all through the window. */
export function dueRanks(platforms: Platform[]): number[] {
  const seen = new Map<Platform, number>();
  const totals = new Map<Platform, number>();
  for (const p of platforms) totals.set(p, (totals.get(p) ?? 0) + 1);
  const keyed = platforms.map((p, i) => {
    const k = seen.get(p) ?? 0;
    seen.set(p, k + 1);
    return { i, key: k / totals.get(p)! };
  });
  const ranks = new Array<number>(platforms.length);
  keyed.sort((a, b) => a.key - b.key).forEach((e, rank) => (ranks[e.i] = rank));
  return ranks;
}
