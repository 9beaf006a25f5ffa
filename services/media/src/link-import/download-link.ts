import type { IncomingMessage } from 'node:http';
import { AppError } from '@postbus/contracts';
import { isNetError, openSafeRequest, type Resolver } from '@postbus/net';

export interface DownloadLimits {
  allowLoopback: boolean;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** The whole download, redirects and body included. */
  totalTimeoutMs: number;
  maxRedirects: number;
  /** Injected in tests to play DNS answers; the system resolver otherwise. */
  resolve?: Resolver;
}

export interface Download {
  /** The links followed, the first one first. */
  chain: URL[];
  contentType: string | undefined;
  contentLength: number | undefined;
  /** The response body; destroy it to stop. It fails when a time limit passes (see linkFailure). */
  body: IncomingMessage;
}

/**
 * Opens a link for import through @postbus/net: resolved once, every address judged, the judged
 * one connected to, each redirect (at most `maxRedirects`) judged again and shown to `checkUrl`.
 */
export async function downloadLink(url: URL, limits: DownloadLimits, checkUrl: (url: URL) => void): Promise<Download> {
  const res = await openSafeRequest(url, {
    allowLoopback: limits.allowLoopback,
    resolve: limits.resolve,
    maxRedirects: limits.maxRedirects,
    timeoutMs: limits.totalTimeoutMs,
    connectTimeoutMs: limits.connectTimeoutMs,
    idleTimeoutMs: limits.idleTimeoutMs,
    checkUrl,
    headers: {
      'user-agent': 'PostbusMediaImport/1.0',
      accept: 'image/*, video/*;q=0.9, */*;q=0.1',
      'accept-encoding': 'identity',
    },
  }).catch((err) => {
    throw linkFailure(err, url);
  });
  if (res.status < 200 || res.status >= 300) {
    res.body.destroy();
    throw new AppError(
      'validation_error',
      `The link could not be downloaded from ${res.url.host}: it answered HTTP ${res.status}.`,
    );
  }
  const declared = res.headers['content-length'];
  return {
    chain: res.chain,
    contentType: res.headers['content-type'],
    contentLength: declared === undefined ? undefined : Number(declared),
    body: res.body,
  };
}

/** A failure of the network in the API's words: the link is refused or could not be fetched (validation_error). */
export function linkFailure(err: unknown, url: URL): unknown {
  if (err instanceof AppError || !isNetError(err)) return err;
  if (err.kind === 'refused_address') return new AppError('validation_error', `The link's host ${err.message}.`);
  if (err.kind === 'invalid_url') return new AppError('validation_error', `url: ${err.message}.`);
  return new AppError('validation_error', `The link could not be downloaded from ${url.host}: ${err.message}.`);
}
