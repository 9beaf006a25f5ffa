import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { nodeFetch } from '../http/node-fetch';

export const PINTEREST_PLATFORM: Platform = 'pinterest';
/** Bytes of an answer read at most: pins, boards and media records are small. */
export const PINTEREST_ANSWER_MAX_BYTES = 1024 * 1024;

/** How to reach Pinterest API v5: `baseUrl` is `https://api.pinterest.com` or `${sandboxUrl}/pinterest`. */
export interface PinterestApiOptions {
  baseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

export interface PinterestCall {
  method: 'GET' | 'POST';
  /** Under the base URL, e.g. `/v5/pins`. */
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  /** True for a call whose effect may have happened though no answer came (a write): a lost answer is outcomeUnknown. */
  write?: boolean;
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** One call to Pinterest; errors become PlatformError with `transient`, `tokenRejected`, `throttle` and `outcomeUnknown` set. */
export async function callPinterest<T = Record<string, unknown>>(
  api: PinterestApiOptions,
  call: PinterestCall,
): Promise<T> {
  const url = new URL(`${api.baseUrl.replace(/\/+$/, '')}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${api.accessToken}` };
  if (call.json !== undefined) headers['content-type'] = 'application/json';
  const what = `${call.method} ${call.path}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (api.fetchImpl ?? nodeFetch)(url, {
      method: call.method,
      headers,
      body: call.json === undefined ? undefined : JSON.stringify(call.json),
      signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
      redirect: 'manual',
    });
    answer = await readBoundedAnswer(res, PINTEREST_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    const code = (cause as { cause?: { code?: string } }).cause?.code;
    const sent = !(code && NOT_SENT.has(code));
    const timeout = name === 'TimeoutError' || name === 'AbortError';
    throw new PlatformError(`Pinterest did not answer (${what}); trying again.`, {
      platform: PINTEREST_PLATFORM,
      transient: true,
      code: timeout ? 'timeout' : 'network_error',
      outcomeUnknown: sent && call.write === true,
      cause,
    });
  }
  const ok = res.status >= 200 && res.status < 300;
  // A write that answered 2xx happened: an unreadable answer leaves what it made to be found again, not sent twice.
  if (ok && answer.cut)
    throw answerTooLarge(PINTEREST_PLATFORM, what, PINTEREST_ANSWER_MAX_BYTES, {
      status: res.status,
      ...(call.write && { transient: true, outcomeUnknown: true }),
    });
  const json = parseObject(answer.text);
  if (ok) return (json ?? {}) as T;
  throw pinterestError(what, call, res.status, res.headers, json);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long Pinterest asks us to wait: `Retry-After` seconds, else `x-ratelimit-reset` (seconds
 * until the window resets: https://developers.pinterest.com/docs/reference/rate-limits/).
 */
export function pinterestRetryAfterMs(headers: Headers): number | undefined {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const seconds = Number(headers.get(name));
    if (headers.get(name) !== null && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  }
  return undefined;
}

/**
 * Errors are `{ code, message }` (https://developers.pinterest.com/docs/api/v5/#tag/Errors): 401 a
 * token Pinterest no longer accepts; 403 a scope or board the token may not use; 404 a board or pin
 * that does not exist; 429 a rate limit with `x-ratelimit-*` headers; 5xx may pass.
 */
export function pinterestError(
  what: string,
  call: Pick<PinterestCall, 'write'>,
  status: number,
  headers: Headers,
  json: Record<string, unknown> | undefined,
): PlatformError {
  const said = typeof json?.message === 'string' ? `: ${json.message.slice(0, 300)}` : '';
  const base = {
    platform: PINTEREST_PLATFORM,
    code: typeof json?.code === 'number' ? json.code : `HTTP ${status}`,
    status,
  };
  if (status === 401)
    return new PlatformError(`Pinterest refused the access token${said}; reconnect the account.`, {
      ...base,
      transient: false,
      tokenRejected: true,
    });
  if (status === 429) {
    const retryAfterMs = pinterestRetryAfterMs(headers);
    return new PlatformError(`Pinterest is rate limiting this account (${what}); trying again later.`, {
      ...base,
      transient: true,
      retryAfterMs,
      throttle: { kind: 'rate_limit', scope: 'account', waitMs: retryAfterMs },
    });
  }
  if (status >= 500)
    return new PlatformError(`Pinterest failed (${what}${said}); trying again.`, {
      ...base,
      transient: true,
      outcomeUnknown: call.write === true,
    });
  if (status === 403)
    return new PlatformError(
      `Pinterest does not let this account do ${what}${said}. Check that the connection granted boards:read and pins:write and that the board is the account's own.`,
      { ...base, transient: false },
    );
  if (status === 404)
    return new PlatformError(`Pinterest found no such object (${what})${said}; check platformMeta.pinterest.boardId.`, {
      ...base,
      transient: false,
    });
  return new PlatformError(`Pinterest refused ${what}${said}.`, { ...base, transient: false });
}

/** The pin's page: `https://www.pinterest.com/pin/{id}/`. */
export function pinterestPermalink(pinId: string): string {
  return `https://www.pinterest.com/pin/${encodeURIComponent(pinId)}/`;
}
