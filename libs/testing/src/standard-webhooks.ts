import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An independent Standard Webhooks verifier, written from the convention and not from our signer:
 * every `v1,<base64>` in webhook-signature is compared with HMAC-SHA256(key, `${id}.${timestamp}.${body}`),
 * where key is the base64 after `whsec_`. Answers which of the listed signatures this secret made.
 */
export function signaturesMadeBy(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): number[] {
  const key = Buffer.from(secret.split('_')[1], 'base64');
  const expected = createHmac('sha256', key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
  const matches: number[] = [];
  headers.signature.split(' ').forEach((entry, i) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matches.push(i);
  });
  return matches;
}

/** True when some signature in the header was made with this secret. */
export function verifiedBy(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): boolean {
  return signaturesMadeBy(secret, headers, body).length > 0;
}
