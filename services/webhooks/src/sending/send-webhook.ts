import { isNetError, safeRequest, type Resolver } from '@postbus/net';

export interface SendResult {
  responseCode: number | null;
  /** Why the attempt failed; null when the endpoint answered 2xx. */
  error: string | null;
}

export type SendWebhook = (req: { url: string; headers: Record<string, string>; body: string }) => Promise<SendResult>;

/** How much of an answer is read before the connection is dropped; only its status matters. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * POSTs one signed delivery through the SSRF-safe client: the target is judged again at every
 * attempt (its DNS may have changed since creation), redirects are not followed, and anything but
 * a 2xx within the timeout is a failed attempt.
 */
export function webhookSender(opts: { allowLoopback: boolean; timeoutMs: number; resolve?: Resolver }): SendWebhook {
  return async ({ url, headers, body }) => {
    try {
      const res = await safeRequest(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Postbus-Webhooks/1.0', ...headers },
        body,
        allowLoopback: opts.allowLoopback,
        resolve: opts.resolve,
        timeoutMs: opts.timeoutMs,
        maxRedirects: 0,
        maxResponseBytes: MAX_ANSWER_BYTES,
        oversize: 'truncate',
      });
      if (res.status >= 200 && res.status < 300) return { responseCode: res.status, error: null };
      const note = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
      return { responseCode: res.status, error: `HTTP ${res.status}${note}` };
    } catch (err) {
      if (isNetError(err))
        return { responseCode: null, error: err.kind === 'timeout' ? `timed out: ${err.message}` : err.message };
      throw err;
    }
  };
}
