import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@postbus/contracts';
import { currentRequestId } from '@postbus/kit';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** How long an upstream may stay silent when nothing else says (GATEWAY_UPSTREAM_TIMEOUT_MS). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;

/**
 * Streams a request to the service that owns it (uploads, media bytes, pages, OAuth, MCP) and
 * streams the answer back; nothing is buffered whole. The original path and query are kept.
 * An upstream silent for `timeoutMs` (no byte either way: no answer yet, or a stalled body) is
 * given up: 504 upstream_timeout before its headers, a cut connection after. A long upload or
 * download that keeps moving is never cut.
 */
export function proxyTo(
  target: string,
  publicBaseUrl: () => string,
  timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS,
): RequestHandler {
  const base = new URL(target);
  return (req: Request, res: Response, next) => {
    const headers = forwardHeaders(req.headers);
    headers['x-request-id'] = currentRequestId() ?? String(req.headers['x-request-id'] ?? '');
    headers['x-forwarded-host'] = String(req.headers.host ?? '');
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-prefix'] = publicBaseUrl();
    const upstream = httpRequest(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: req.method,
        path: req.originalUrl,
        headers,
      },
      (answer) => {
        res.status(answer.statusCode ?? 502);
        for (const [k, v] of Object.entries(answer.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
        answer.pipe(res);
      },
    );
    let timedOut = false;
    upstream.setTimeout(timeoutMs, () => {
      timedOut = true;
      upstream.destroy();
      if (!res.headersSent)
        next(new AppError('upstream_timeout', `The service behind this path did not answer within ${timeoutMs} ms.`));
      else res.destroy();
    });
    upstream.on('error', () => {
      if (timedOut) return; // answered already, by the timeout
      if (!res.headersSent) next(new AppError('service_unavailable', 'The service behind this path is unavailable.'));
      else res.destroy();
    });
    req.on('aborted', () => upstream.destroy());
    req.pipe(upstream);
  };
}

export interface ProxyRoute {
  /** Path prefix, e.g. `/settings` or `/api/v1/media`. */
  prefix: string;
  /** Methods proxied (all when absent). */
  methods?: string[];
  /** Only paths matching this pattern under the prefix (all when absent). */
  match?: RegExp;
  target: string;
  /** Methods that are credential attempts (a sign-in, a registration, a token request), counted per address in a tight bucket. */
  attempts?: string[];
  /** Takes a bearer credential: counted per credential, and a refused one counts as an attempt of its address. */
  perCredential?: boolean;
  /** Not counted per address: callers we do not choose (platforms fetching signed files, Meta's webhooks) and whose requests prove themselves by signature. */
  unlimited?: boolean;
}
