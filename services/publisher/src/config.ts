import { int, loadConfig, oneOf, url, type VarSpec } from '@postbus/kit';
import { serviceVars } from '@postbus/service';
import { parseRateLimitRules, type RateLimitRules } from './rate-limits/rate-limit-rules';

/** A platform URL that, left empty, is a path under SANDBOX_URL. */
function sandboxDefault(doc: string): VarSpec<string> {
  return { ...url(`${doc} (empty: under SANDBOX_URL)`), default: '' };
}

function msList(doc: string, def: number[]): VarSpec<number[]> {
  return {
    doc,
    default: def,
    parse(raw: string) {
      const list = raw.split(',').map((s) => Number(s.trim()));
      if (!list.length || list.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('expected comma-separated milliseconds');
      return list;
    },
  };
}

function rateLimits(doc: string, def: string): VarSpec<RateLimitRules> {
  return { doc, default: parseRateLimitRules(def), parse: parseRateLimitRules };
}

function prefixes(doc: string): VarSpec<string[]> {
  return { doc, default: [], parse: (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean) };
}

export const publisherVars = {
  ...serviceVars,
  PUBLISHER_CONCURRENCY: int('Posts one publisher process handles at once (its prefetch)', 8, 1),
  PUBLISHER_MAX_ATTEMPTS: int('Platform attempts per post; after the last transient failure the post fails and a dead letter is kept', 5, 1),
  PUBLISHER_BACKOFF_BASE_MS: int('First retry delay after a transient platform error; doubles per attempt, with jitter, never below Retry-After', 2000, 1),
  PUBLISHER_BACKOFF_MAX_MS: int('Longest retry delay the backoff grows to (a platform Retry-After may ask for more)', 900_000, 1),
  PUBLISHER_RETRY_DELAYS_MS: msList('Delays before a job whose handling failed inside Postbus (database or broker trouble) is redelivered; their count bounds those redeliveries', [2000, 10_000, 60_000, 300_000]),
  PUBLISHER_PROCESSING_TIMEOUT_MS: int('How long a platform may keep media processing (containers, uploads, TikTok status) before the post fails', 1_800_000, 1),
  PUBLISHER_WORKER_HEARTBEAT_MS: int('Heartbeat of each publisher process; a post left in flight by a process silent for 3 beats is taken over', 5000, 10),
  PUBLISHER_CREDENTIALS_CACHE_MS: int('How long a profile\'s credentials are reused before connections is asked again (dropped at once on connection.revoked or a refused token; 0 = ask every time)', 30_000),
  PUBLISHER_ANNOUNCE_BATCH_MS: int('Outcomes finished within this window are relayed to the bus in one batch', 100),
  PUBLISHER_RATE_LIMITS: rateLimits(
    'Per profile publishing limits shared by all processes: key=count/window[+count/window], keys a platform or platform.kind',
    'instagram=100/24h,threads=250/24h,facebook.reels=30/24h,tiktok=6/1m',
  ),
  PLATFORM_POLL_INTERVAL_MS: int('First delay between status checks of media a platform is processing (grows by half up to the maximum)', 1000, 1),
  PLATFORM_POLL_MAX_INTERVAL_MS: int('Longest delay between two status checks', 30_000, 1),
  PLATFORM_REQUEST_TIMEOUT_MS: int('Deadline of one platform API call', 30_000, 1),
  PLATFORM_UPLOAD_TIMEOUT_MS: int('Deadline of one upload request (a chunk or a whole file); its answer is due PLATFORM_REQUEST_TIMEOUT_MS after the last byte', 600_000, 1),
  SANDBOX_URL: url('The platform sandbox; every platform URL left empty is a path under it', 'http://127.0.0.1:4010'),
  THREADS_API_URL: sandboxDefault('Threads Graph API base URL; real: https://graph.threads.net/v1.0'),
  INSTAGRAM_API_URL: sandboxDefault('Instagram Graph API base URL; real: https://graph.instagram.com/v21.0'),
  FACEBOOK_API_URL: sandboxDefault('Facebook Graph API base URL; real: https://graph.facebook.com/v21.0'),
  FACEBOOK_VIDEO_API_URL: sandboxDefault('Facebook video API base URL; real: https://graph-video.facebook.com/v21.0'),
  TIKTOK_API_URL: sandboxDefault('TikTok Open API base URL; real: https://open.tiktokapis.com'),
  TIKTOK_CHUNK_BYTES: int('FILE_UPLOAD chunk size for TikTok (5–64 MB; smaller files go whole)', 10 * 1024 * 1024, 1),
  TIKTOK_PULL_URL_PREFIXES: prefixes('Comma-separated media URL prefixes verified with TikTok: those videos use PULL_FROM_URL, others FILE_UPLOAD'),
  YOUTUBE_UPLOAD_URL: sandboxDefault('YouTube upload API base URL; real: https://www.googleapis.com/upload/youtube/v3'),
  YOUTUBE_CHUNK_BYTES: {
    doc: 'Resumable upload chunk size for YouTube (a multiple of 256 KiB)',
    default: 8 * 1024 * 1024,
    parse(raw: string) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n <= 0 || n % 262_144 !== 0) throw new Error('expected a positive multiple of 262144');
      return n;
    },
  } as VarSpec<number>,
  YOUTUBE_DEFAULT_PRIVACY: oneOf('Privacy of a YouTube upload when platformMeta.youtube.privacyStatus is not set', ['public', 'unlisted', 'private'] as const, 'public'),
};

/** Where each platform URL points when it is left empty. */
const SANDBOX_PATHS = {
  THREADS_API_URL: '/threads/v1.0',
  INSTAGRAM_API_URL: '/instagram/v21.0',
  FACEBOOK_API_URL: '/facebook/v21.0',
  FACEBOOK_VIDEO_API_URL: '/facebook-video/v21.0',
  TIKTOK_API_URL: '/tiktok',
  YOUTUBE_UPLOAD_URL: '/youtube/upload/youtube/v3',
} as const;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(publisherVars, env);
  for (const [name, path] of Object.entries(SANDBOX_PATHS) as [keyof typeof SANDBOX_PATHS, string][]) config[name] ||= `${config.SANDBOX_URL}${path}`;
  return config;
}
export type PublisherConfig = ReturnType<typeof readConfig>;
