import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceMetrics } from '@postbus/metrics';

export type Checks = Record<string, 'ok' | 'down'>;

export interface OpsServerOptions {
  port: number;
  host: string;
  metrics: ServiceMetrics;
  /** The state of the dependencies readiness depends on (database, broker). */
  checks: () => Promise<Checks>;
  /** True once the service's start() has finished: listeners open, consumers consuming. */
  started: () => boolean;
  /** True once the process drains: it stops being ready before it stops working. */
  draining: () => boolean;
}

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Each service's small operations listener, apart from its API: `GET /metrics` (Prometheus
 * text), `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the
 * service has started, the database and the broker answer, and the process is not draining).
 */
export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res
      .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(body));
  };
  const routes: Record<string, (res: ServerResponse) => Promise<void>> = {
    '/metrics': async (res) => {
      const { contentType, body } = await opts.metrics.exposition();
      res.writeHead(200, { 'content-type': contentType }).end(body);
    },
    '/healthz': async (res) => json(res, 200, { status: 'ok' }),
    '/readyz': async (res) => {
      const checks = await opts.checks();
      const status = opts.draining()
        ? 'draining'
        : !opts.started()
          ? 'starting'
          : Object.values(checks).every((c) => c === 'ok')
            ? 'ok'
            : 'unavailable';
      json(res, status === 'ok' ? 200 : 503, { status, checks });
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = req.method === 'GET' || req.method === 'HEAD' ? routes[(req.url ?? '/').split('?')[0]] : undefined;
    if (!route)
      return json(res, 404, {
        error: 'Not found: this listener answers GET /metrics, /healthz and /readyz.',
        code: 'not_found',
      });
    route(res).catch(() => json(res, 500, { error: 'Internal error.', code: 'internal_error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `METRICS_PORT ${opts.port} is in use (another process of this service on this machine?): set METRICS_PORT to a free port, or 0 for any`,
            )
          : err,
      ),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
