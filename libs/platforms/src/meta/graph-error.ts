import { readGraphUsage } from './graph-usage';

/**
 * Meta Graph conventions shared by Threads, Instagram and Facebook: the error envelope,
 * which codes are worth retrying, and how long the platform asks us to wait.
 */

/** `{"error":{...}}`: every field but `message` and `code` is optional. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** Business Use Case throttling, one code per use case: 80000 ads insights … 80001 Pages, 80002 Instagram … 80014 catalog batch. */
const BUC_THROTTLE_CODES = Array.from({ length: 15 }, (_, i) => 80000 + i);

/** The codes that mean "too many calls" (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/). */
export const GRAPH_THROTTLE_CODES: ReadonlySet<number> = new Set([4, 17, 32, 341, 613, ...BUC_THROTTLE_CODES]);

/** Codes the Graph "Handling Errors" guide says to retry: unknown/temporary errors and throttling. */
export const GRAPH_TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2, ...GRAPH_THROTTLE_CODES]);

/**
 * Codes that mean the token is unusable: the profile must be reconnected. Only 102 (session) and
 * 190 (access token, whatever its subcode: 458, 460, 463, 467…) do (https://developers.facebook.com/docs/graph-api/guides/error-handling/).
 * 2500 is not among them: Graph also answers it for a malformed path ("Unknown path components").
 */
export const GRAPH_TOKEN_CODES: ReadonlySet<number> = new Set([102, 190]);

/** Codes that mean a permission was not granted (10, 200–299). */
export function isGraphPermissionCode(code: number | undefined): boolean {
  return code === 10 || (code !== undefined && code >= 200 && code <= 299);
}

export function parseGraphError(body: unknown): GraphErrorBody | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return undefined;
  const e = error as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' ? e.message : undefined,
    type: typeof e.type === 'string' ? e.type : undefined,
    code: toInt(e.code),
    error_subcode: toInt(e.error_subcode),
    is_transient: e.is_transient === true,
    error_user_title: typeof e.error_user_title === 'string' ? e.error_user_title : undefined,
    error_user_msg: typeof e.error_user_msg === 'string' ? e.error_user_msg : undefined,
    fbtrace_id: typeof e.fbtrace_id === 'string' ? e.fbtrace_id : undefined,
  };
}

/** Transient when the HTTP status or the body says so; the body code wins over a plain 400. */
export function isGraphTransient(status: number, error: GraphErrorBody | undefined): boolean {
  if (status === 429 || status >= 500) return true;
  if (!error) return false;
  if (error.is_transient) return true;
  return error.code !== undefined && GRAPH_TRANSIENT_CODES.has(error.code);
}

/** "(#100) Param text must be at most 500 characters long." → "Param text must be at most 500 characters long." */
export function cleanGraphMessage(message: string | undefined): string | undefined {
  const cleaned = message?.replace(/^\(#\d+\)\s*/, '').trim();
  return cleaned ? cleaned : undefined;
}

/**
 * How long to wait, from `Retry-After` (seconds or an HTTP date) or the longest wait a usage
 * header announces (`estimated_time_to_regain_access` in `X-Business-Use-Case-Usage`, `reset_time_duration`).
 */
export function graphRetryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  // a malformed or oversized header is ignored: the caller falls back to its own backoff
  return readGraphUsage(headers).regainAccessMs;
}

function toInt(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}
