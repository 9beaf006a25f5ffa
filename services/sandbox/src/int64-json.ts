/**
 * JSON with 64-bit integers written as bare numbers. Platforms such as TikTok send int64 ids as
 * JSON numbers; JSON.stringify cannot write a BigInt, and a Number would already be rounded.
 * Each BigInt is written as a marked string first, then the marks are replaced by its digits.
 */
const MARK = '\u0000int64:';
const MARKED = /"\\u0000int64:(-?\d+)"/g;

export function stringifyWithInt64(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v)).replace(
    MARKED,
    '$1',
  );
}
