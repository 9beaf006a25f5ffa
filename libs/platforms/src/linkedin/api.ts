import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';

export const LINKEDIN_PLATFORM: Platform = 'linkedin';
export const LINKEDIN_DEFAULT_TIMEOUT_MS = 30_000;
/**
 * The `LinkedIn-Version` every /rest call carries (YYYYMM). LinkedIn serves each monthly version for
 * at least a year, then answers 426 NONEXISTENT_VERSION:
 * https://learn.microsoft.com/en-us/linkedin/marketing/versioning
 */
export const LINKEDIN_API_VERSION_DEFAULT = '202610';
/** Bytes of an answer read at most: posts, upload instructions and profiles are small. */
export const LINKEDIN_ANSWER_MAX_BYTES = 1024 * 1024;

export interface LinkedInApiOptions {
  /** `https://api.linkedin.com` (the sandbox's `/linkedin` otherwise); calls go to `/rest/…` and `/v2/userinfo`. */
  baseUrl: string;
  accessToken: string;
  /** `LinkedIn-Version` header, YYYYMM. */
  version: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

export interface LinkedInCall {
  method: 'GET' | 'POST' | 'PUT';
  /** Under the base URL, e.g. `/rest/posts`. */
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  /** True for a call whose effect may have happened though no answer came (a post): a lost answer is outcomeUnknown. */
  write?: boolean;
}

export interface LinkedInAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One Rest.li call with the headers every versioned API needs (Authorization, `LinkedIn-Version`,
 * `X-Restli-Protocol-Version: 2.0.0`: https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/protocol-version).
 * Errors become PlatformError with `transient`, `tokenRejected`, `throttle` and `outcomeUnknown` set as they apply.
 */
export async function callLinkedIn<T = Record<string, unknown>>(
  api: LinkedInApiOptions,
  call: LinkedInCall,
): Promise<LinkedInAnswer<T>> {
  const url = new URL(`${api.baseUrl.replace(/\/+$/, '')}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${api.accessToken}`,
    'x-restli-protocol-version': '2.0.0',
  };
  if (call.path.startsWith('/rest/')) headers['linkedin-version'] = api.version;
  if (call.json !== undefined) headers['content-type'] = 'application/json';
  const what = `${call.method} ${call.path}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (api.fetchImpl ?? fetch)(url, {
      method: call.method,
      headers,
      body: call.json === undefined ? undefined : JSON.stringify(call.json),
      signal: AbortSignal.timeout(api.timeoutMs ?? LINKEDIN_DEFAULT_TIMEOUT_MS),
      redirect: 'manual',
    });
    answer = await readBoundedAnswer(res, LINKEDIN_ANSWER_MAX_BYTES);
  } catch (cause) {
    throw linkedInNetworkError(what, call.write === true, cause);
  }
  const ok = res.status >= 200 && res.status < 300;
  // A write that answered 2xx happened: an unreadable answer leaves what it made to be found again, not sent twice.
  if (ok && answer.cut)
    throw answerTooLarge(LINKEDIN_PLATFORM, what, LINKEDIN_ANSWER_MAX_BYTES, {
      status: res.status,
      ...(call.write && { transient: true, outcomeUnknown: true }),
    });
  const json = parseLinkedInJson(answer.text);
  if (ok) return { status: res.status, headers: res.headers, body: (json ?? {}) as T };
  throw linkedInError(what, call.write === true, res.status, res.headers, json);
}

export function linkedInNetworkError(what: string, write: boolean, cause: unknown): PlatformError {
  const name = (cause as { name?: string }).name;
  const timeout = name === 'TimeoutError' || name === 'AbortError';
  return new PlatformError(`LinkedIn did not answer ${what}${timeout ? ' in time' : ''}; trying again.`, {
    platform: LINKEDIN_PLATFORM,
    transient: true,
    code: timeout ? 'timeout' : 'network_error',
    outcomeUnknown: write,
    cause,
  });
}

export function parseLinkedInJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Error bodies are `{ status, serviceErrorCode, code, message }`
 * (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling): 401 an expired
 * or revoked token; 403 a missing permission or role; 426 a version LinkedIn no longer serves; 429 the
 * member's or the app's daily limit (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits);
 * 5xx may pass. Others are refusals of the request itself.
 */
export function linkedInError(
  what: string,
  write: boolean,
  status: number,
  headers: Headers,
  json: Record<string, unknown> | undefined,
): PlatformError {
  const message = typeof json?.message === 'string' ? json.message.slice(0, 300) : '';
  const said = message ? `: ${message}` : '';
  const code = typeof json?.code === 'string' ? json.code : `HTTP ${status}`;
  const base = { platform: LINKEDIN_PLATFORM, status, code, subcode: numberOf(json?.serviceErrorCode) };
  if (status === 401)
    return new PlatformError(`LinkedIn refused the access token${said}; reconnect the profile.`, {
      ...base,
      code: 'token_rejected',
      transient: false,
      tokenRejected: true,
    });
  if (status === 429) {
    const retryAfterMs = retryAfterOf(headers.get('retry-after'));
    return new PlatformError(`LinkedIn is rate limiting this member or app (${what}); trying again later.`, {
      ...base,
      transient: true,
      retryAfterMs,
      throttle: { kind: 'rate_limit', scope: 'account', waitMs: retryAfterMs },
    });
  }
  if (status >= 500)
    return new PlatformError(`LinkedIn failed (${what}${said}); trying again.`, {
      ...base,
      transient: true,
      outcomeUnknown: write,
    });
  if (status === 426)
    return new PlatformError(
      `LinkedIn no longer serves the API version Postbus calls${said}; set LINKEDIN_API_VERSION to a current month (YYYYMM).`,
      { ...base, code: 'version_retired', transient: false },
    );
  if (status === 403)
    return new PlatformError(
      `LinkedIn refused ${what}${said}. The profile lacks the permission or role (w_member_social for a member; ADMINISTRATOR, CONTENT_ADMIN or DIRECT_SPONSORED_CONTENT_POSTER of the organization with w_organization_social): reconnect it granting them.`,
      { ...base, transient: false },
    );
  return new PlatformError(`LinkedIn refused ${what}${said}.`, { ...base, transient: false });
}

function numberOf(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function retryAfterOf(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 86_400) * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** A LinkedIn-Version setting: six digits, a year and a month (YYYYMM). */
export function linkedInVersionVar(doc: string): { doc: string; default: string; parse(raw: string): string } {
  return {
    doc,
    default: LINKEDIN_API_VERSION_DEFAULT,
    parse(raw) {
      if (!/^20\d{2}(0[1-9]|1[0-2])$/.test(raw)) throw new Error('expected YYYYMM, e.g. 202610');
      return raw;
    },
  };
}
