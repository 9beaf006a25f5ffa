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
  x: 'GET /2/users/me',
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
  linkedin:
    "LinkedIn does not report what is left through the API; each app has daily limits per member and per app (see the app's Analytics tab in the developer portal), and LinkedIn answers 429 when they run out (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits). Postbus holds a member to 150 posts a day.",
  x: "X answered GET /2/users/me, so the connecting app's pay-per-use plan still lets it call the API; X reports no posts-left figure: each call answers x-rate-limit-remaining (POST /2/tweets: 100 per user per 15 minutes, 10,000 per app per 24 hours), and the pay-per-use plan of the connecting app bills every post against its own credits and spending cap (https://docs.x.com/x-api/fundamentals/rate-limits, https://docs.x.com/x-api/getting-started/pricing).",
  pinterest:
    'Pinterest reports no posts-left figure; a trial-access app may make 1,000 calls a day in all, a standard-access one has per-minute limits per user and category (pins_write among them), and Pinterest answers 429 with x-ratelimit-* headers when they run out (https://developers.pinterest.com/docs/reference/rate-limits/).',
};
