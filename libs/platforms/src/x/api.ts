import type { Platform } from '@postbus/contracts';
import { PlatformError, type PlatformThrottle } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';

export const X_PLATFORM: Platform = 'x';
export const X_DEFAULT_TIMEOUT_MS = 30_000;
/** Bytes of an answer read at most: posts, media states and users are small. */
const ANSWER_MAX_BYTES = 1024 * 1024;

export interface XApiOptions {
  /** `https://api.x.com` (the sandbox's `${SANDBOX_URL}/x` otherwise); `/2/…` is appended. */
  baseUrl: string;
  accessToken: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

export interface XCall {
  method: 'GET' | 'POST';
  /** Under the base URL, e.g. `/2/tweets`. */
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  /** A multipart body already encoded, with its content type. */
  multipart?: { body: Buffer; contentType: string };
  /** True for a call whose effect may have happened though no answer came (a post): a lost answer is outcomeUnknown. */
  write?: boolean;
  timeoutMs?: number;
}

/** What X said about the caller's budget on the last answer (https://docs.x.com/x-api/fundamentals/rate-limits). */
export interface XRateLimit {
  limit?: number;
  remaining?: number;
  /** Epoch seconds when the window resets. */
  resetAt?: number;
}

export interface XAnswer<T> {
  status: number;
  body: T;
  rateLimit: XRateLimit;
}

/** One call to the X API v2; errors become PlatformError with `transient`, `tokenRejected`, `throttle` and `outcomeUnknown` set as they apply. */
export async function callX<T = Record<string, unknown>>(api: XApiOptions, call: XCall): Promise<XAnswer<T>> {
  const url = new URL(`${api.baseUrl.replace(/\/+$/, '')}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${api.accessToken}`,
    'user-agent': 'Postbus/1.0',
  };
  let body: string | Buffer | undefined;
  if (call.multipart) {
    headers['content-type'] = call.multipart.contentType;
    body = call.multipart.body;
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  const what = `${call.method} ${call.path}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (api.fetchImpl ?? fetch)(url, {
      method: call.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs ?? api.timeoutMs ?? X_DEFAULT_TIMEOUT_MS),
    });
    answer = await readBoundedAnswer(res, ANSWER_MAX_BYTES);
  } catch (cause) {
    const timeout = (cause as Error)?.name === 'TimeoutError';
    throw new PlatformError(`X did not answer ${what}; trying again.`, {
      platform: X_PLATFORM,
      transient: true,
      code: timeout ? 'timeout' : 'network_error',
      outcomeUnknown: call.write === true,
      cause,
    });
  }
  const rateLimit = rateLimitOf(res.headers);
  const ok = res.status >= 200 && res.status < 300;
  // A write that answered 2xx happened: what it made is found again before it is sent twice (as for an answer without an id).
  if (ok && answer.cut)
    throw answerTooLarge(X_PLATFORM, what, ANSWER_MAX_BYTES, {
      status: res.status,
      ...(call.write && { transient: true, outcomeUnknown: true }),
    });
  const json = parseJson(answer.text);
  if (ok) return { status: res.status, body: (json ?? {}) as T, rateLimit };
  throw xError(what, call, res.status, rateLimit, json);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `x-rate-limit-limit`, `x-rate-limit-remaining`, `x-rate-limit-reset` (epoch seconds): https://docs.x.com/x-api/fundamentals/rate-limits */
export function rateLimitOf(headers: Headers): XRateLimit {
  const num = (name: string) => {
    const raw = headers.get(name);
    const n = raw === null ? NaN : Number(raw);
    return Number.isFinite(n) ? n : undefined;
  };
  return {
    limit: num('x-rate-limit-limit'),
    remaining: num('x-rate-limit-remaining'),
    resetAt: num('x-rate-limit-reset'),
  };
}

/** The problem X answered: `{ title, detail, type, reason }` or `{ errors: [{ message }] }` (https://docs.x.com/x-api/fundamentals/response-codes-and-errors). */
export interface XProblem {
  title: string;
  detail: string;
  type: string;
  reason: string;
}

export function problemOf(json: Record<string, unknown> | undefined): XProblem {
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : '');
  const first = Array.isArray(json?.errors) ? (json.errors[0] as Record<string, unknown> | undefined) : undefined;
  return {
    title: str(json?.title) || str(first?.title),
    detail: str(json?.detail) || str(first?.detail) || str(first?.message),
    type: str(json?.type) || str(first?.type),
    reason: str(json?.reason),
  };
}

/** The caller's own X app (its plan, credits or spending cap) is the limit, not this account or Postbus. */
export function isXPlanLimit(status: number, p: XProblem): boolean {
  if (status === 402) return true;
  if (status === 429 && (/usage-?cap/i.test(p.title + p.type) || /credit/i.test(p.title + p.detail))) return true;
  return (
    status === 403 && (/client-forbidden|client-not-enrolled/.test(p.type + ' ' + p.reason) || /credit/i.test(p.detail))
  );
}

function xError(
  what: string,
  call: XCall,
  status: number,
  rateLimit: XRateLimit,
  json: Record<string, unknown> | undefined,
): PlatformError {
  const p = problemOf(json);
  const said = p.detail || p.title ? `: ${p.detail || p.title}` : '';
  const base = { platform: X_PLATFORM, status, code: p.title || `HTTP ${status}` };
  if (isXPlanLimit(status, p)) return planLimitError(what, status, p, rateLimit);
  if (status === 401)
    return new PlatformError(`X refused the access token${said}; reconnect the account.`, {
      ...base,
      code: 'token_rejected',
      transient: false,
      tokenRejected: true,
    });
  if (status === 429) {
    const waitMs = rateLimit.resetAt !== undefined ? Math.max(0, rateLimit.resetAt * 1000 - Date.now()) : undefined;
    const throttle: PlatformThrottle = { kind: 'rate_limit', scope: 'account', waitMs };
    return new PlatformError(`X is rate limiting this account (${what}); trying again when the window resets.`, {
      ...base,
      transient: true,
      retryAfterMs: waitMs,
      throttle,
    });
  }
  if (status >= 500)
    return new PlatformError(`X failed (${what}${said}); trying again.`, {
      ...base,
      transient: true,
      outcomeUnknown: call.write === true,
    });
  const duplicate = status === 403 && /duplicate/i.test(p.detail);
  return new PlatformError(`X refused ${what}${said}.`, {
    ...base,
    code: duplicate ? 'duplicate_content' : base.code,
    transient: false,
  });
}

/**
 * X's pay-per-use plan bills the app that made the call: a usage cap (429 UsageCapExceeded), spent
 * credits (402) or an app not enrolled for this endpoint (403 client-forbidden) is the connecting
 * X app's own limit (https://docs.x.com/x-api/getting-started/pricing). No retry helps before its
 * owner adds credits or raises the cap, so the post fails saying so.
 */
function planLimitError(what: string, status: number, p: XProblem, rateLimit: XRateLimit): PlatformError {
  const said = [p.title, p.detail].filter(Boolean).join(': ');
  const reset = rateLimit.resetAt
    ? ` X says the window resets at ${new Date(rateLimit.resetAt * 1000).toISOString()}.`
    : '';
  return new PlatformError(
    `X refused ${what} because of your own X developer app's plan (${said || `HTTP ${status}`}): add credits, raise its spending cap or enrol it for this endpoint in the X Developer Console (https://console.x.com), then retry the post.${reset}`,
    { platform: X_PLATFORM, status, code: 'x_plan_limit', transient: false },
  );
}

/** Where the sandbox serves the X API, under SANDBOX_URL. */
export const X_SANDBOX_PATH = '/x';
