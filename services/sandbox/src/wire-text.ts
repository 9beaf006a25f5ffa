/**
 * Values off the wire as text, for lookups and records: a query parameter or a JSON field is not
 * always the string the platform's docs ask for, and `[object Object]` would hide what was sent.
 */

/** A query parameter from Express's simple parser: the value, or a repeated parameter's values joined with commas; `fallback` when absent. */
export function queryText(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(',');
  return fallback;
}

/** A JSON field: a string as is, a number or boolean written out, an object or array as JSON, nothing as ''. */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}
