import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable value for URLs and cookies (256 bits, base64url). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as their SHA-256. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
