import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@postbus/contracts';
import { currentRequestId } from '@postbus/kit';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/**
 * Streams a request to the service that owns it (uploads, media bytes, pages, OAuth, MCP) and
 * streams the answer back; nothing is buffered whole. The original path and query are kept.
 */
export function proxyTo(target: string, publicBaseUrl: () => string): RequestHandler {
  const base = new URL(target);
  return (req: Request, res: Response, next) => {
    const headers = forwardHeaders(req.headers);
    headers['x-request-id'] = currentRequestId() ?? String(req.headers['x-request-id'] ?? '');
    headers['x-forwarded-host'] = String(req.headers.host ?? '');
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-prefix'] = publicBaseUrl();
    const upstream = httpRequest(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, method: req.method, path: req.originalUrl, headers },
      (answer) => {
        res.status(answer.statusCode ?? 502);
        for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
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
}
