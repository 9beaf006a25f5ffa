/**
 * Record keys in the TID form (https://atproto.com/specs/tid): 53 bits of microseconds since the
 * epoch and a 10-bit clock id, written as 13 base32-sortable characters.
 */
const TID_CHARS = '234567abcdefghijklmnopqrstuvwxyz';

/** A TID as the syntax allows it (its first character keeps the top bit 0). */
export const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

/** The TID of a time in microseconds and a clock id (its low 10 bits). */
export function tidOf(micros: bigint, clockId: number): string {
  let n = ((micros & ((1n << 53n) - 1n)) << 10n) | (BigInt(clockId) & 1023n);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_CHARS[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}

/** The microseconds a TID holds (callers check TID_PATTERN first). */
export function tidMicros(tid: string): bigint {
  let n = 0n;
  for (const c of tid) n = (n << 5n) | BigInt(TID_CHARS.indexOf(c));
  return n >> 10n;
}
