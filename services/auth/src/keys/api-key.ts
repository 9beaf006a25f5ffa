import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'sk_live_';
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOOKUP_LENGTH = 12;

/** A new live key: `sk_live_` + 43 base62 characters (256 bits of randomness). */
export function generateApiKey(): { key: string; lookup: string; hash: Buffer } {
  let body = '';
  // Rejection sampling keeps every character uniform.
  while (body.length < 43) {
    for (const b of randomBytes(64)) if (b < 248 && body.length < 43) body += ALPHABET[b % 62];
  }
  const key = KEY_PREFIX + body;
  return { key, lookup: lookupOf(key)!, hash: hashKey(key) };
}

/** The short public part used to find a key's row; undefined when the token cannot be a key. */
export function lookupOf(token: string): string | undefined {
  if (!token.startsWith(KEY_PREFIX) || token.length < KEY_PREFIX.length + 32) return undefined;
  return token.slice(KEY_PREFIX.length, KEY_PREFIX.length + LOOKUP_LENGTH);
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
