import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key a secret stands for: the bytes after `whsec_`, base64-decoded. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
