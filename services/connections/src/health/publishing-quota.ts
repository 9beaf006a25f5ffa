import type { Platform } from '@postbus/contracts';

/** A platform's own count of API posts in its rolling window. */
export interface PlatformQuota {
  usage: number;
  total: number;
  durationS: number;
}

/** Reads the quota with the profile's token, on the platforms that report it. */
export type QuotaReader = (profile: { platformUserId: string; accessToken: string }) => Promise<PlatformQuota | null>;

/** The platform call each reader makes, named in the report. */
export const QUOTA_SOURCES: Partial<Record<Platform, string>> = {
  instagram: 'content_publishing_limit',
  threads: 'threads_publishing_limit',
};

/** Why the other platforms have no figures, and what bounds publishing there instead. */
export const NO_QUOTA_REASONS: Record<Platform, string> = {
  instagram: 'Instagram did not answer content_publishing_limit.',
  threads: 'Threads did not answer threads_publishing_limit.',
  facebook:
    'Facebook does not report how many posts a Page has left; reels are limited to 30 per Page per 24 hours, which Postbus counts itself.',
  tiktok:
    "TikTok does not report a creator's remaining posts; video and photo inits are limited to 6 a minute per token, and TikTok answers spam_risk_too_many_posts when the creator's daily cap is reached.",
  youtube:
    "YouTube does not report the project's remaining quota through the API: 100 uploads a day per Google Cloud project (see the project's quota page).",
  bluesky:
    'Bluesky does not report what is left; a PDS limits each account to 5,000 write points an hour and 35,000 a day (a new record costs 3), and answers 429 with ratelimit-reset when they run out (https://docs.bsky.app/docs/advanced-guides/rate-limits).',
  mastodon:
    "Mastodon does not report what is left; by default an instance allows each account 300 statuses and 30 media uploads per 30 minutes, and answers 429 with X-RateLimit-Reset when they run out (https://docs.joinmastodon.org/api/rate-limits/). An instance's admin may set other limits.",
};
