import type { Platform } from '@postbus/contracts';
import { PlatformError, type PlatformErrorInit } from '../errors';
import { GRAPH_TRANSIENT_CODES, cleanGraphMessage } from '../meta/graph-error';

export const PLATFORM_NAMES: Record<Platform, string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  linkedin: 'LinkedIn',
  x: 'X',
  pinterest: 'Pinterest',
};

/**
 * A failed OAuth or profile call. `transient` (network, 5xx, throttling): try again later, the
 * grant is fine. `tokenRefused`: the platform refused the token or grant for good (revoked,
 * expired, invalid_grant) and only a new consent helps. Neither: the request itself was wrong
 * (bad client credentials, bad redirect URI), which no reconnect fixes.
 */
export class OAuthError extends PlatformError {
  readonly tokenRefused: boolean;

  constructor(message: string, init: PlatformErrorInit & { tokenRefused?: boolean }) {
    super(message, init);
    this.name = 'OAuthError';
    this.tokenRefused = init.tokenRefused ?? false;
  }
}

export function isOAuthError(err: unknown): err is OAuthError {
  return err instanceof OAuthError;
}

/** The pieces of any platform's error body: RFC 6749 (`error`, `error_description`), Meta Graph, Instagram legacy, TikTok and Google API envelopes. */
interface ErrorParts {
  code?: string | number;
  subcode?: number;
  message?: string;
  /** Google API `errors[].reason`. */
  reason?: string;
}

function partsOf(body: unknown): ErrorParts {
  if (!body || typeof body !== 'object')
    return { message: typeof body === 'string' && body ? body.slice(0, 200) : undefined };
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'string') return { code: b.error, message: str(b.error_description) ?? str(b.error_message) };
  if (typeof b.error_type === 'string') return { code: b.error_type, message: str(b.error_message) };
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    const errors = Array.isArray(e.errors) ? (e.errors as Record<string, unknown>[]) : [];
    return {
      code: typeof e.code === 'number' || typeof e.code === 'string' ? e.code : undefined,
      subcode: typeof e.error_subcode === 'number' ? e.error_subcode : undefined,
      message: cleanGraphMessage(str(e.message)),
      reason: str(errors[0]?.reason),
    };
  }
  return {};
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

const TRANSIENT_CODES = new Set<string | number>([
  'rate_limit_exceeded',
  'temporarily_unavailable',
  'server_error',
  'internal_error',
  ...GRAPH_TRANSIENT_CODES,
]);
const TRANSIENT_REASONS = new Set(['backendError', 'rateLimitExceeded', 'userRateLimitExceeded', 'internalError']);
/** Codes meaning the token or grant is dead: revoked, expired, or never valid for this user. */
const REFUSED_CODES = new Set<string | number>([
  'invalid_grant',
  'access_token_invalid',
  'scope_not_authorized',
  'invalid_token',
  190,
  102,
]);
/** A 401 that blames our app, not the user's token. */
const APP_CODES = new Set<string | number>(['invalid_client', 'unauthorized_client']);

/** Maps a platform answer that is not a success; `action` completes "… while <action>". */
export function oauthErrorFromResponse(
  platform: Platform,
  action: string,
  res: { status: number; body: unknown },
): OAuthError {
  const name = PLATFORM_NAMES[platform];
  const { code, subcode, message, reason } = partsOf(res.body);
  const transient =
    res.status >= 500 ||
    res.status === 429 ||
    (code !== undefined && TRANSIENT_CODES.has(code)) ||
    (reason !== undefined && TRANSIENT_REASONS.has(reason));
  const tokenRefused =
    !transient &&
    ((code !== undefined && REFUSED_CODES.has(code)) ||
      (res.status === 401 && !(code !== undefined && APP_CODES.has(code))));
  const detail = [message, code !== undefined ? `code ${code}${subcode ? `/${subcode}` : ''}` : `HTTP ${res.status}`]
    .filter(Boolean)
    .join('; ');
  const text = transient
    ? `${name} is unavailable right now while ${action} (${detail}); it will be tried again.`
    : tokenRefused
      ? `${name} refused the authorization while ${action} (${detail}); the profile must be reconnected.`
      : `${name} rejected the request while ${action} (${detail}).`;
  return new OAuthError(text, {
    platform,
    transient,
    tokenRefused,
    code: code ?? `http_${res.status}`,
    subcode,
    status: res.status,
  });
}

/** Failures that happen before a request is sent: nothing reached the platform. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_INVALID_URL',
]);

/**
 * No answer at all: always transient. A timeout or a connection broken after connecting may have
 * delivered the request (`outcomeUnknown`): the platform may have acted on it, as a refresh that
 * rotated the refresh token.
 */
export function oauthNetworkError(platform: Platform, action: string, cause: unknown): OAuthError {
  const name = (cause as { name?: string } | null)?.name;
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
  const inner = (cause as { cause?: { code?: unknown } } | null)?.cause;
  const notSent = !timedOut && typeof inner?.code === 'string' && NOT_SENT_CODES.has(inner.code);
  return new OAuthError(
    `${PLATFORM_NAMES[platform]} ${timedOut ? 'did not answer in time' : notSent ? 'could not be reached' : 'broke the connection before answering'} while ${action}; it will be tried again.`,
    {
      platform,
      transient: true,
      code: timedOut ? 'timeout' : 'network_error',
      outcomeUnknown: !notSent,
      cause,
    },
  );
}

/** A success answer that lacks what it must carry. */
export function oauthMalformed(platform: Platform, action: string, missing: string): OAuthError {
  return new OAuthError(`${PLATFORM_NAMES[platform]} answered without ${missing} while ${action}.`, {
    platform,
    transient: false,
    code: 'malformed_response',
  });
}
