import { PlatformError } from '../errors';

const platform = 'tiktok' as const;

export const TIKTOK_TOKEN_REASON = 'The TikTok access token is invalid or expired; reconnect the profile.';

interface Rule {
  transient: boolean;
  reason: string;
  tokenRejected?: boolean;
}

/** TikTok's `error.code` values (platform-apis 4.7), each with what a person should do. */
const CODES: Record<string, Rule> = {
  access_token_invalid: { transient: false, reason: TIKTOK_TOKEN_REASON, tokenRejected: true },
  scope_not_authorized: {
    transient: false,
    reason:
      'Postbus is not allowed to publish to this TikTok account (the video.publish scope was not granted); reconnect the profile and allow posting.',
  },
  scope_permission_missed: {
    transient: false,
    reason:
      'Postbus is not allowed to publish to this TikTok account (the video.publish scope was not granted); reconnect the profile and allow posting.',
  },
  spam_risk_too_many_posts: {
    transient: false,
    reason:
      'This TikTok account has reached its daily limit of posts published through apps; publish it again tomorrow.',
  },
  spam_risk_user_banned_from_posting: {
    transient: false,
    reason: 'TikTok has barred this account from posting; check the account in the TikTok app.',
  },
  spam_risk_too_many_pending_share: {
    transient: true,
    reason:
      'This TikTok account has too many posts waiting to be finished in the TikTok app; publishing will be tried again later.',
  },
  reached_active_user_cap: {
    transient: false,
    reason:
      "The TikTok app reached its daily limit of accounts that may post through it; publish again tomorrow or ask an operator to raise the app's quota.",
  },
  unaudited_client_can_only_post_to_private_accounts: {
    transient: false,
    reason:
      "The TikTok app has not passed TikTok's audit yet, so it may only post privately: set platformMeta.tiktok.privacyLevel to SELF_ONLY and make the TikTok account private.",
  },
  url_ownership_unverified: {
    transient: false,
    reason:
      'TikTok refused to pull the media from its link because the domain is not verified for this app; upload the file with the media endpoints or verify the domain in the TikTok developer portal.',
  },
  privacy_level_option_mismatch: {
    transient: false,
    reason:
      'The privacy level is not one this TikTok account allows; pick one of the options svc_get_tiktok_posting_options lists.',
  },
  rate_limit_exceeded: {
    transient: true,
    reason: 'TikTok is limiting how often this account may be called; publishing will be tried again shortly.',
  },
  internal_error: { transient: true, reason: 'TikTok had an internal error; publishing will be tried again.' },
};

/** `fail_reason` of a FAILED publish (platform-apis 4.6). */
const FAIL_REASONS: Record<string, Rule> = {
  file_format_check_failed: {
    transient: false,
    reason: 'TikTok does not accept the video format; use an MP4 (H.264) or WebM video.',
  },
  duration_check_failed: {
    transient: false,
    reason:
      "TikTok refused the video length; keep it within the account's maximum duration (usually 10 minutes) and over 3 seconds.",
  },
  frame_rate_check_failed: {
    transient: false,
    reason: 'TikTok refused the video frame rate; re-encode it at 23 to 60 frames per second.',
  },
  picture_size_check_failed: {
    transient: false,
    reason:
      'TikTok refused the picture size; use images and video frames between 360 and 4096 pixels per side (photos at most 1080p).',
  },
  video_pull_failed: {
    transient: false,
    reason:
      'TikTok could not download the video from its link; make sure the link is public and points straight at the file.',
  },
  photo_pull_failed: {
    transient: false,
    reason:
      'TikTok could not download a photo from its link; make sure the links are public JPEG or WebP files on a verified domain.',
  },
  publish_cancelled: { transient: false, reason: 'The post was cancelled on TikTok before it was published.' },
  auth_removed: {
    transient: false,
    reason:
      "The TikTok account removed Postbus's access while the post was processing; reconnect the profile and publish again.",
  },
  spam_risk_too_many_posts: CODES.spam_risk_too_many_posts,
  spam_risk_user_banned_from_posting: CODES.spam_risk_user_banned_from_posting,
  spam_risk_text: {
    transient: false,
    reason: 'TikTok flagged the title or description as spam; change the text and publish again.',
  },
  spam_risk: { transient: false, reason: 'TikTok flagged the post as spam; change it and publish again later.' },
  internal: {
    transient: true,
    reason: 'TikTok failed to process the post because of an internal error; publishing will be tried again.',
  },
};

/** Maps an answer whose `error.code` is not `ok` (or a non-2xx without a readable envelope). */
export function tiktokErrorFromResponse(status: number, headers: Headers, body: unknown): PlatformError {
  const error = (body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined) as
    { code?: unknown; message?: unknown; log_id?: unknown } | undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : undefined;
  const rule = code ? CODES[code] : undefined;
  const transient = rule ? rule.transient : status === 429 || status >= 500;
  const reason =
    rule?.reason ??
    (transient
      ? `TikTok had a temporary problem (HTTP ${status}${code ? `, ${code}` : ''}); publishing will be tried again.`
      : code === 'invalid_param' && message
        ? `TikTok refused the post: ${/[.!?]$/.test(message) ? message : `${message}.`}`
        : code
          ? `TikTok refused the post (${code}${message ? `: ${message}` : ''}); check the post's title, privacy level and media.`
          : `TikTok answered HTTP ${status} with a response Postbus could not read; check the TikTok API base URL.`);
  return new PlatformError(reason, {
    platform,
    transient,
    code: code ?? `http_${status}`,
    status,
    retryAfterMs: retryAfterMs(headers, code),
    tokenRejected: rule?.tokenRejected ?? status === 401,
  });
}

/**
 * A publish that ended FAILED, as a PlatformError. FAILED is final for that publish_id, so a
 * passing reason (`internal`) means a new init
 * (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status).
 */
export function tiktokPublishFailure(failReason: string | null, publishId: string): PlatformError {
  const rule = (failReason && FAIL_REASONS[failReason]) || undefined;
  return new PlatformError(
    rule?.reason ??
      `TikTok could not publish the post${failReason ? ` (${failReason})` : ''}; check the media and publish again.`,
    {
      platform,
      transient: rule?.transient ?? false,
      code: failReason ?? 'FAILED',
      containerId: publishId,
      restart: rule?.transient ?? false,
    },
  );
}

export function tiktokNetworkError(timedOut: boolean, maybeDelivered: boolean, cause: unknown): PlatformError {
  const reason = timedOut
    ? 'TikTok did not answer in time; publishing will be tried again.'
    : maybeDelivered
      ? 'The connection to TikTok broke before it answered; publishing will be tried again.'
      : 'TikTok could not be reached; publishing will be tried again.';
  return new PlatformError(reason, {
    platform,
    transient: true,
    code: timedOut ? 'timeout' : maybeDelivered ? 'network_error' : 'unreachable',
    cause,
  });
}

export function tiktokInvalidInput(code: string, reason: string): PlatformError {
  return new PlatformError(reason, { platform, transient: false, code });
}

/** `Retry-After`, else a minute for the per-token sliding window. */
function retryAfterMs(headers: Headers, code: string | undefined): number | undefined {
  const header = Number(headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header * 1000;
  return code === 'rate_limit_exceeded' ? 60_000 : undefined;
}
