import {
  bool,
  ConfigError,
  fillSandboxUrls,
  int,
  loadConfig,
  msList,
  oneOf,
  sandboxDefault,
  sandboxVars,
  url,
  type VarSpec,
} from '@postbus/kit';
import {
  MASTODON_SANDBOX_PATH,
  mastodonInstanceUrlVar,
  linkedInVersionVar,
  X_SANDBOX_PATH,
  metaHostVar,
  metaVersionVars,
  tiktokPullVars,
  versionedBase,
} from '@postbus/platforms';
import { serviceVars } from '@postbus/service';
import { parseRateLimitRules, type RateLimitRules } from './rate-limits/rate-limit-rules';

function rateLimits(doc: string, def: string): VarSpec<RateLimitRules> {
  return { doc, default: parseRateLimitRules(def), parse: parseRateLimitRules };
}

export const publisherVars = {
  ...serviceVars,
  PUBLISHER_CONCURRENCY: int('Posts one publisher process handles at once (its prefetch)', 8, 1),
  PUBLISHER_MAX_ATTEMPTS: int(
    'Platform attempts per post; after the last transient failure the post fails and a dead letter is kept',
    5,
    1,
  ),
  PUBLISHER_BACKOFF_BASE_MS: int(
    'First retry delay after a transient platform error; doubles per attempt, with jitter, never below Retry-After',
    2000,
    1,
  ),
  PUBLISHER_BACKOFF_MAX_MS: int(
    'Longest retry delay the backoff grows to (a platform Retry-After may ask for more)',
    900_000,
    1,
  ),
  PUBLISHER_RETRY_DELAYS_MS: msList(
    'Delays before a job whose handling failed inside Postbus (database or broker trouble) is redelivered; their count bounds those redeliveries',
    [2000, 10_000, 60_000, 300_000],
  ),
  PUBLISHER_PROCESSING_TIMEOUT_MS: int(
    'How long a platform may keep media processing (containers, uploads, TikTok status) before the post fails',
    1_800_000,
    1,
  ),
  PUBLISHER_WORKER_HEARTBEAT_MS: int(
    'Heartbeat of each publisher process; a post left in flight by a process silent for 3 beats is taken over',
    5000,
    10,
  ),
  PUBLISHER_CREDENTIALS_CACHE_MS: int(
    "How long a profile's credentials are reused before connections is asked again (dropped at once on connection.revoked or a refused token; 0 = ask every time)",
    30_000,
  ),
  PUBLISHER_ANNOUNCE_BATCH_MS: int('Outcomes finished within this window are relayed to the bus in one batch', 100),
  PUBLISHER_RATE_LIMITS: rateLimits(
    'Per profile publishing limits shared by all processes: key=count/window[+count/window], keys a platform or platform.kind',
    // bluesky: a PDS allows 5,000 write points an hour and 35,000 a day per account, 3 per new record (https://docs.bsky.app/docs/advanced-guides/rate-limits)
    // pinterest: a trial-access app may make 1,000 calls a day in all (https://developers.pinterest.com/docs/reference/rate-limits/); standard access allows more, per minute and category
    // x: POST /2/tweets allows 100 requests per user per 15 minutes (https://docs.x.com/x-api/fundamentals/rate-limits)
    // mastodon: 300 statuses and 30 media uploads per 30 minutes per account by default (https://docs.joinmastodon.org/api/rate-limits/); 4 media a post makes the uploads bind at 7 posts
    // linkedin: share creation is limited per member per day, 150 (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits; the app's own figures are on its Analytics tab)
    'instagram=100/24h,threads=250/24h,facebook.reels=30/24h,tiktok=6/1m,bluesky=1666/1h+11666/24h,mastodon=7/30m,linkedin=150/24h,x=100/15m,pinterest=1000/24h',
  ),
  PUBLISHER_THROTTLE_MIN_DEFER_MS: int(
    'Shortest wait after a platform throttles (Meta codes 4, 17, 32, 613, 80000–80014) or has no publishing slot left (Instagram); a deferral, not an attempt',
    300_000,
    1,
  ),
  PUBLISHER_THROTTLE_MAX_DEFER_MS: int(
    'Longest single wait on a throttle; repeated throttles double the wait up to this',
    3_600_000,
    1,
  ),
  PUBLISHER_THROTTLE_GIVE_UP_MS: int(
    'How long a post may wait on platform throttling in all before it fails with the throttle as its reason',
    86_400_000,
    1,
  ),
  PLATFORM_POLL_INTERVAL_MS: int(
    'First delay between status checks of media a platform is processing (grows by half up to the maximum)',
    1000,
    1,
  ),
  PLATFORM_POLL_MAX_INTERVAL_MS: int('Longest delay between two status checks', 30_000, 1),
  PLATFORM_REQUEST_TIMEOUT_MS: int('Deadline of one platform API call', 30_000, 1),
  PLATFORM_UPLOAD_TIMEOUT_MS: int(
    'Deadline of one upload request (a chunk or a whole file); its answer is due PLATFORM_REQUEST_TIMEOUT_MS after the last byte',
    600_000,
    1,
  ),
  ...sandboxVars,
  ...metaVersionVars,
  THREADS_API_URL: metaHostVar(
    'Threads host, THREADS_API_VERSION appended; real: https://graph.threads.net (empty: under SANDBOX_URL)',
  ),
  INSTAGRAM_API_URL: metaHostVar(
    'Instagram Graph host, META_GRAPH_VERSION appended; real: https://graph.instagram.com (empty: under SANDBOX_URL)',
  ),
  FACEBOOK_API_URL: metaHostVar(
    'Facebook Graph host, META_GRAPH_VERSION appended; Page videos go here too (graph-video.facebook.com is retired); real: https://graph.facebook.com (empty: under SANDBOX_URL)',
  ),
  TIKTOK_API_URL: sandboxDefault('TikTok Open API base URL; real: https://open.tiktokapis.com'),
  TIKTOK_CHUNK_BYTES: int(
    'FILE_UPLOAD chunk size for TikTok: 5 MiB to 64 MB against the real API (smaller files go whole)',
    10 * 1024 * 1024,
    1,
  ),
  ...tiktokPullVars,
  YOUTUBE_UPLOAD_URL: sandboxDefault('YouTube upload API base URL; real: https://www.googleapis.com/upload/youtube/v3'),
  YOUTUBE_CHUNK_BYTES: {
    doc: 'Resumable upload chunk size for YouTube (a multiple of 256 KiB)',
    default: 8 * 1024 * 1024,
    parse(raw: string) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n <= 0 || n % 262_144 !== 0)
        throw new Error('expected a positive multiple of 262144');
      return n;
    },
  } as VarSpec<number>,
  BLUESKY_SERVICE_URL: sandboxDefault(
    'Bluesky PDS (or entryway) that posts, blobs and record look-ups go to, with the session connections holds; real: https://bsky.social',
  ),
  MASTODON_INSTANCE_URL: mastodonInstanceUrlVar(
    "Base URL of a Mastodon instance, {instance} standing for its host (the profile's instance); real: https://{instance}",
  ),
  LINKEDIN_API_URL: sandboxDefault(
    'LinkedIn API host (/rest/posts, /rest/images, /rest/videos, /rest/documents); real: https://api.linkedin.com',
  ),
  LINKEDIN_API_VERSION: linkedInVersionVar(
    'LinkedIn-Version (YYYYMM) of the /rest calls; LinkedIn serves a version about a year (learn.microsoft.com/linkedin/marketing/versioning)',
  ),
  X_API_URL: sandboxDefault('X API v2 (posts, media upload, user timeline); real: https://api.x.com'),
  PINTEREST_API_URL: sandboxDefault('Pinterest API v5 base URL (pins, boards, media); real: https://api.pinterest.com'),
  YOUTUBE_DEFAULT_PRIVACY: oneOf(
    'Privacy of a YouTube upload when platformMeta.youtube.privacyStatus is not set',
    ['public', 'unlisted', 'private'] as const,
    'public',
  ),
  YOUTUBE_PROJECT_AUDITED: bool(
    "Whether the Google API project passed YouTube's audit; until it does, YouTube keeps every upload private (the post gets a youtube_private_lock warning)",
    false,
  ),
  YOUTUBE_PRIVATE_LOCK: oneOf(
    'When YouTube keeps a video private that was asked public or unlisted: warn (posted, with a warning and post.restricted) or fail (the post fails; unaudited: before any upload)',
    ['warn', 'fail'] as const,
    'warn',
  ),
  TIKTOK_POST_ID_WAIT_MS: int(
    'How long a public TikTok post that is live waits for TikTok to release its post id (moderation) before it is marked posted without one',
    7_200_000,
    0,
  ),
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development-only switches',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  PUBLIC_BASE_URL: url(
    'The {base_url} clients see: signed media links under it ({base_url}/files/…) are our own, read wherever it resolves',
    'http://localhost:3000',
  ),
  MEDIA_HTTP_URL: {
    ...url("Media's own listener: signed file links under it are our own too (empty: none)"),
    default: '',
  } as VarSpec<string>,
  PUBLISHER_ALLOW_LOOPBACK_MEDIA: bool(
    'Let media links the publisher reads reach loopback addresses (tests and development only)',
    false,
  ),
};

/** Where each platform URL points when it is left empty. */
const SANDBOX_PATHS = {
  THREADS_API_URL: '/threads',
  INSTAGRAM_API_URL: '/instagram',
  FACEBOOK_API_URL: '/facebook',
  TIKTOK_API_URL: '/tiktok',
  YOUTUBE_UPLOAD_URL: '/youtube/upload/youtube/v3',
  BLUESKY_SERVICE_URL: '/bluesky',
  MASTODON_INSTANCE_URL: MASTODON_SANDBOX_PATH,
  LINKEDIN_API_URL: '/linkedin',
  X_API_URL: X_SANDBOX_PATH,
  PINTEREST_API_URL: '/pinterest',
} as const;

/**
 * TikTok refuses chunks under 5 MB or over 64 MB (the last may reach 128 MB); 5 MiB–64,000,000 bytes
 * satisfies both readings of "MB" (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide).
 * The sandbox applies its own, configurable chunk rules, so only a real TikTok URL is held to them.
 */
export const TIKTOK_CHUNK_RANGE = { min: 5 * 1024 * 1024, max: 64_000_000 } as const;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(publisherVars, env);
  if (config.POSTBUS_ENV === 'production' && config.PUBLISHER_ALLOW_LOOPBACK_MEDIA)
    throw new ConfigError(['PUBLISHER_ALLOW_LOOPBACK_MEDIA must be false in production']);
  const { min, max } = TIKTOK_CHUNK_RANGE;
  if (config.TIKTOK_API_URL && (config.TIKTOK_CHUNK_BYTES < min || config.TIKTOK_CHUNK_BYTES > max)) {
    throw new ConfigError([
      `TIKTOK_CHUNK_BYTES=${config.TIKTOK_CHUNK_BYTES}: TikTok takes chunks of ${min} to ${max} bytes (5 MiB to 64 MB)`,
    ]);
  }
  fillSandboxUrls(config, SANDBOX_PATHS);
  config.THREADS_API_URL = versionedBase(config.THREADS_API_URL, config.THREADS_API_VERSION);
  config.INSTAGRAM_API_URL = versionedBase(config.INSTAGRAM_API_URL, config.META_GRAPH_VERSION);
  config.FACEBOOK_API_URL = versionedBase(config.FACEBOOK_API_URL, config.META_GRAPH_VERSION);
  return config;
}
export type PublisherConfig = ReturnType<typeof readConfig>;
