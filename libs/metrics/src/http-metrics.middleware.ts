import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceMetrics } from './service-metrics';

type Req = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string; originalUrl?: string };

/**
 * Express middleware timing every request. The route label is the matched route pattern
 * (`/api/v1/posts/:id`), the prefix of a proxied path, `unmatched` for a 404 outside any
 * route, or `other`: never the raw URL, so ids do not multiply the series.
 */
export function httpMetrics(metrics: ServiceMetrics, opts: { prefixes?: string[] } = {}) {
  const prefixes = [...(opts.prefixes ?? [])].sort((a, b) => b.length - a.length);
  const routeOf = (req: Req, status: number): string => {
    if (typeof req.route?.path === 'string') return `${req.baseUrl ?? ''}${req.route.path}`;
    const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
    const prefix = prefixes.find((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
    if (prefix) return prefix;
    return status === 404 ? 'unmatched' : 'other';
  };
  return (req: Req, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    let done = false;
    const observe = () => {
      if (done) return;
      done = true;
      const status = res.writableFinished ? res.statusCode : 499; // 499: the client went away first
      metrics.httpAnswered(
        req.method ?? 'GET',
        routeOf(req, status),
        status,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    res.once('finish', observe);
    res.once('close', observe);
    next();
  };
}
