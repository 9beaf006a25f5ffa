import { createHmac } from 'node:crypto';
import { secretKey } from '../endpoints/webhook-secret';

/** The three Standard Webhooks headers of one attempt. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with
 * the base64-decoded part of the secret after `whsec_`. With several secrets (a rotation in
 * progress) the header lists one signature per secret, space-separated, the newest first.
 */
export function signWebhook(secrets: string[], id: string, timestampSeconds: number, body: string): SignedHeaders {
  const content = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets.map((s) => `v1,${createHmac('sha256', secretKey(s)).update(content).digest('base64')}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': signatures.join(' ') };
}
