import { createHmac, randomInt } from 'node:crypto';
import type { CommentSubscription } from './comment-store';

export type SignatureMode = 'valid' | 'invalid' | 'missing';

export interface DeliveryResult {
  subscriptionId: number;
  callbackUrl: string;
  /** HTTP status the callback answered; null when it could not be reached. */
  status: number | null;
  body: string;
}

const TIMEOUT_MS = 10_000;

/**
 * POSTs a webhook body the way Meta does: JSON, `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw
 * body with the App Secret>` and the legacy `X-Hub-Signature: sha1=…`. `invalid` signs with another
 * secret; `missing` sends no signature.
 */
export async function deliverSigned(
  subscription: CommentSubscription,
  body: string,
  mode: SignatureMode = 'valid',
): Promise<DeliveryResult> {
  const secret = mode === 'invalid' ? `${subscription.appSecret}-wrong` : subscription.appSecret;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'facebookexternalua' };
  if (mode !== 'missing') {
    headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    headers['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
  }
  try {
    const res = await fetch(subscription.callbackUrl, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return {
      subscriptionId: subscription.id,
      callbackUrl: subscription.callbackUrl,
      status: res.status,
      body: (await res.text()).slice(0, 2000),
    };
  } catch (err) {
    return {
      subscriptionId: subscription.id,
      callbackUrl: subscription.callbackUrl,
      status: null,
      body: (err as Error).message,
    };
  }
}

/**
 * Meta's verification of a callback URL: `GET <callback>?hub.mode=subscribe&hub.challenge=<int>&hub.verify_token=<token>`;
 * the callback proves itself by answering 200 with the challenge as its body.
 */
export async function verifyCallback(
  callbackUrl: string,
  verifyToken: string,
): Promise<{ verified: boolean; status: number | null; body: string }> {
  const challenge = String(randomInt(1_000_000_000, 2_000_000_000));
  const url = new URL(callbackUrl);
  url.searchParams.set('hub.mode', 'subscribe');
  url.searchParams.set('hub.challenge', challenge);
  url.searchParams.set('hub.verify_token', verifyToken);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await res.text()).slice(0, 2000);
    return { verified: res.status === 200 && body === challenge, status: res.status, body };
  } catch (err) {
    return { verified: false, status: null, body: (err as Error).message };
  }
}
