import { invalidParameter } from './graph-error';

/** Graph answers only the fields asked for, and `id` always. */
export function pickFields(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in object) out[field] = object[field];
  out.id = object.id;
  return out;
}

/** `2024-07-01T12:00:00+0000`, Graph's timestamp format. */
export function graphTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** Which of a user's objects one page of an edge lists: published from `since` to `until`, at most `limit`. */
export interface GraphPageWindow {
  since: number;
  until: number;
  limit: number;
}

/**
 * The `since`/`until` (Unix seconds, here in ms) and `limit` (1 to `limitMax`, default 25) of a
 * list edge such as `GET /{ig-user-id}/media` or `GET /{threads-user-id}/threads`; anything else is
 * refused with code 100.
 */
export function graphPageWindow(params: Record<string, string>, limitMax: number): GraphPageWindow {
  const since = params.since === undefined ? -Infinity : secondsParam('since', params.since) * 1000;
  const until = params.until === undefined ? Infinity : secondsParam('until', params.until) * 1000;
  const limit = params.limit === undefined ? 25 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > limitMax)
    throw invalidParameter(`Param limit must be an integer from 1 to ${limitMax}`);
  return { since, until, limit };
}

function secondsParam(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw invalidParameter(`Param ${name} must be a Unix timestamp`);
  return n;
}
