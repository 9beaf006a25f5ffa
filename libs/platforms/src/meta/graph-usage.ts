import type { PlatformThrottle } from '../errors';
import type { GraphErrorBody } from './graph-error';

/**
 * What Meta's usage headers say about a throttle, read defensively: the headers come from the
 * network, so an oversized, malformed or hostile value is ignored rather than trusted.
 * Formats: https://developers.facebook.com/docs/graph-api/overview/rate-limiting/
 */
export interface GraphUsage {
  /** The highest percentage of any budget (call count, CPU time, total time); 100 = spent. */
  usagePct?: number;
  /** The longest wait any header announced (`estimated_time_to_regain_access`, `reset_time_duration`). */
  regainAccessMs?: number;
}

/** A usage header longer than this is not read (real ones are a few hundred bytes). */
export const MAX_USAGE_HEADER_CHARS = 4096;
/** At most this many business objects, and entries per object, are read from X-Business-Use-Case-Usage. */
const MAX_BUC_ENTRIES = 32;
/** No percentage above this, no wait beyond this, is believed. */
const MAX_PCT = 10_000;
const MAX_WAIT_MS = 7 * 86_400_000;

/** Application (4, 341) and user/page/custom/business-use-case (17, 32, 613, 80000–80014) throttling codes (GRL, "Handling Errors" guide). */
const APP_THROTTLE_CODES: ReadonlySet<number> = new Set([4, 341]);
const ACCOUNT_THROTTLE_CODES: ReadonlySet<number> = new Set([17, 32, 613]);
const isBusinessUseCaseCode = (code: number): boolean => code >= 80000 && code <= 80014;

export function isGraphThrottleCode(code: number | undefined): boolean {
  return (
    code !== undefined &&
    (APP_THROTTLE_CODES.has(code) || ACCOUNT_THROTTLE_CODES.has(code) || isBusinessUseCaseCode(code))
  );
}

/**
 * Reads `X-App-Usage` / `X-Page-Usage` (`{"call_count":…,"total_cputime":…,"total_time":…}`, percentages over the
 * rolling hour), `X-Ad-Account-Usage` (`acc_id_util_pct`, `reset_time_duration` in seconds) and
 * `X-Business-Use-Case-Usage` (`{"<id>":[{type, call_count, total_cputime, total_time, estimated_time_to_regain_access (minutes)}]}`),
 * all per https://developers.facebook.com/docs/graph-api/overview/rate-limiting/
 */
export function readGraphUsage(headers: Headers): GraphUsage {
  const pcts: number[] = [];
  const waits: number[] = [];
  for (const name of ['x-app-usage', 'x-page-usage']) {
    const usage = headerObject(headers, name);
    if (usage) pcts.push(...percentages(usage));
  }
  const ad = headerObject(headers, 'x-ad-account-usage');
  if (ad) {
    pcts.push(...percentages(ad, ['acc_id_util_pct']));
    const reset = bounded(ad.reset_time_duration, MAX_WAIT_MS / 1000);
    if (reset !== undefined && reset > 0) waits.push(reset * 1000);
  }
  const buc = headerObject(headers, 'x-business-use-case-usage');
  if (buc) {
    for (const entries of Object.values(buc).slice(0, MAX_BUC_ENTRIES)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries.slice(0, MAX_BUC_ENTRIES)) {
        if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
        pcts.push(...percentages(entry as Record<string, unknown>));
        const minutes = bounded(
          (entry as Record<string, unknown>).estimated_time_to_regain_access,
          MAX_WAIT_MS / 60_000,
        );
        if (minutes !== undefined && minutes > 0) waits.push(minutes * 60_000);
      }
    }
  }
  return {
    ...(pcts.length && { usagePct: Math.max(...pcts) }),
    ...(waits.length && { regainAccessMs: Math.round(Math.max(...waits)) }),
  };
}

/** Graph's budgets roll over one hour (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/); Threads' over 24 hours. */
export const GRAPH_RATE_WINDOW_MS = 3_600_000;

/**
 * The throttle a Graph error stands for, if it is one: who waits (the app or this account) and
 * what the headers say about how long. `retryAfterMs` is the caller's reading of Retry-After.
 */
export function graphThrottle(
  status: number,
  error: GraphErrorBody | undefined,
  headers: Headers,
  retryAfterMs?: number,
  windowMs = GRAPH_RATE_WINDOW_MS,
): PlatformThrottle | undefined {
  const code = error?.code;
  if (!isGraphThrottleCode(code) && !(status === 429 && code === undefined)) return undefined;
  const usage = readGraphUsage(headers);
  const waitMs = usage.regainAccessMs ?? retryAfterMs;
  return {
    kind: 'rate_limit',
    scope: code !== undefined && APP_THROTTLE_CODES.has(code) ? 'app' : 'account',
    windowMs,
    ...(waitMs !== undefined && { waitMs }),
    ...(usage.usagePct !== undefined && { usagePct: usage.usagePct }),
  };
}

/** A header's JSON object, or undefined when it is absent, too long, not JSON or not an object. */
function headerObject(headers: Headers, name: string): Record<string, unknown> | undefined {
  const raw = headers.get(name);
  if (!raw || raw.length > MAX_USAGE_HEADER_CHARS) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function percentages(usage: Record<string, unknown>, fields = ['call_count', 'total_cputime', 'total_time']): number[] {
  return fields.map((f) => bounded(usage[f], MAX_PCT)).filter((n): n is number => n !== undefined);
}

/** A finite, non-negative JSON number no greater than `max`; anything else is ignored. */
function bounded(value: unknown, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;
}
