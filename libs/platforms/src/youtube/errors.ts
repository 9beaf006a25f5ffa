import { PlatformError } from '../errors';

const platform = 'youtube' as const;

/** Bytes of an answer read at most: video resources, comment pages and error envelopes are small. */
export const YOUTUBE_ANSWER_MAX_BYTES = 1024 * 1024;

export const YOUTUBE_TOKEN_REASON = 'The YouTube access token is invalid or expired; reconnect the channel.';

interface Rule {
  transient: boolean;
  reason: string;
}

/** `error.errors[0].reason` values (platform-apis 5.6). */
const REASONS: Record<string, Rule> = {
  quotaExceeded: {
    transient: true,
    reason:
      "The YouTube API project's daily quota is used up; publishing will be tried again after the quota resets at midnight Pacific time.",
  },
  uploadLimitExceeded: {
    transient: false,
    reason:
      'This YouTube channel has reached its own limit of uploads for the last 24 hours; publish it again tomorrow.',
  },
  rateLimitExceeded: {
    transient: true,
    reason: 'YouTube is limiting how often this channel may be called; publishing will be tried again shortly.',
  },
  userRateLimitExceeded: {
    transient: true,
    reason: 'YouTube is limiting how often this channel may be called; publishing will be tried again shortly.',
  },
  forbidden: {
    transient: false,
    reason: 'YouTube does not allow this channel to do that (check that the channel is verified and in good standing).',
  },
  forbiddenPrivacySetting: {
    transient: false,
    reason: 'YouTube does not allow the privacy setting for this upload; choose public, unlisted or private.',
  },
  invalidTitle: { transient: false, reason: 'YouTube refused the title; use at most 100 characters without < or >.' },
  invalidDescription: {
    transient: false,
    reason: 'YouTube refused the description (the caption); use at most 5,000 bytes without < or >.',
  },
  invalidTags: { transient: false, reason: 'YouTube refused the tags; keep them under 500 characters together.' },
  invalidCategoryId: { transient: false, reason: 'YouTube refused the category; use a valid video category id.' },
  invalidPublishAt: {
    transient: false,
    reason: 'YouTube refused the publish time; a scheduled video must be private with a time in the future.',
  },
  mediaBodyRequired: {
    transient: false,
    reason: 'YouTube received no video bytes; check that the media link serves the file.',
  },
  invalidImage: { transient: false, reason: 'YouTube refused the thumbnail image; use a JPEG or PNG under 2 MB.' },
  authError: { transient: false, reason: YOUTUBE_TOKEN_REASON },
  backendError: { transient: true, reason: 'YouTube had a backend error; publishing will be tried again.' },
};

/** Maps any YouTube answer that is not a success. */
export function youtubeErrorFromResponse(
  status: number,
  headers: Headers,
  body: unknown,
  now = Date.now(),
): PlatformError {
  const error = (body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined) as
    { message?: unknown; errors?: Array<{ reason?: unknown; message?: unknown }> } | undefined;
  const reasonCode = typeof error?.errors?.[0]?.reason === 'string' ? error.errors[0].reason : undefined;
  const rule = reasonCode ? REASONS[reasonCode] : undefined;
  const tokenRejected = status === 401 || reasonCode === 'authError';
  const transient = !tokenRejected && (rule ? rule.transient : status === 429 || status >= 500);
  const message = typeof error?.message === 'string' && error.message ? error.message : undefined;
  const reason = tokenRejected
    ? YOUTUBE_TOKEN_REASON
    : (rule?.reason ??
      (transient
        ? `YouTube had a temporary problem (HTTP ${status}); publishing will be tried again.`
        : message
          ? `YouTube refused the upload: ${/[.!?]$/.test(message) ? message : `${message}.`}`
          : `YouTube answered HTTP ${status} with a response Postbus could not read; check the YouTube API base URL.`));
  return new PlatformError(reason, {
    platform,
    transient,
    code: reasonCode ?? `http_${status}`,
    status,
    tokenRejected,
    retryAfterMs: retryAfterMs(headers, reasonCode, now),
  });
}

export function youtubeNetworkError(timedOut: boolean, cause: unknown): PlatformError {
  return new PlatformError(
    timedOut
      ? 'YouTube did not answer in time; publishing will be tried again.'
      : 'The connection to YouTube failed; publishing will be tried again.',
    { platform, transient: true, code: timedOut ? 'timeout' : 'network_error', cause },
  );
}

export function youtubeInvalidInput(code: string, reason: string): PlatformError {
  return new PlatformError(reason, { platform, transient: false, code });
}

/** `Retry-After`, or for quotaExceeded the time until the next midnight in Los Angeles. */
function retryAfterMs(headers: Headers, reason: string | undefined, now: number): number | undefined {
  const header = Number(headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header * 1000;
  if (reason === 'quotaExceeded') return msUntilPacificMidnight(now);
  return undefined;
}

export function msUntilPacificMidnight(now: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = (get('hour') * 3600 + get('minute') * 60 + get('second')) * 1000;
  return Math.max(60_000, 86_400_000 - elapsed);
}
