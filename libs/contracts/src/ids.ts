import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An opaque prefixed id: `pst_` + 20 base62 characters (~119 bits). */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % 62];
  return `${prefix}_${out}`;
}
