import type { RequestHandler } from 'express';
import { healthRpc } from '@postbus/contracts';
import type { Bus } from '@postbus/bus';

export const SERVICES = [
  'auth',
  'connections',
  'posts',
  'media',
  'publisher',
  'mcp',
  'webhooks',
  'automation',
] as const;

interface HealthReport {
  status: 'ok' | 'degraded';
  services: Record<string, string>;
  dependencies: { broker: 'ok' | 'down'; database: 'ok' | 'down' | 'unknown' };
  time: string;
}

/**
 * Asks every service over RPC (each checks its database and broker) and reports what is down.
 * Answers are reused for a short while so polling every second costs a handful of RPCs at most.
 */
export function healthHandler(bus: Bus, opts: { cacheMs?: number; timeoutMs?: number } = {}): RequestHandler {
  let last: { at: number; report: HealthReport } | undefined;
  let inFlight: Promise<HealthReport> | undefined;

  const probe = async (): Promise<HealthReport> => {
    const broker = bus.connection.connected ? 'ok' : 'down';
    const answers = await Promise.all(
      SERVICES.map((s) =>
        bus.rpc.call(healthRpc(s), {}, null, { timeoutMs: opts.timeoutMs ?? 1000 }).then(
          (h) => ({ s, h }),
          () => ({ s, h: undefined }),
        ),
      ),
    );
    const services: Record<string, string> = {};
    const databaseChecks: string[] = [];
    for (const { s, h } of answers) {
      if (!h) services[s] = 'down';
      else {
        const bad = Object.entries(h.checks)
          .filter(([, v]) => v !== 'ok')
          .map(([k]) => k);
        services[s] = bad.length ? `degraded (${bad.join(', ')} down)` : 'ok';
        if (h.checks.database) databaseChecks.push(h.checks.database);
      }
    }
    const database = !databaseChecks.length ? 'unknown' : databaseChecks.every((c) => c === 'ok') ? 'ok' : 'down';
    const ok = broker === 'ok' && database !== 'down' && Object.values(services).every((v) => v === 'ok');
    return {
      status: ok ? 'ok' : 'degraded',
      services,
      dependencies: { broker, database },
      time: new Date().toISOString(),
    };
  };

  return async (_req, res) => {
    const fresh = last && Date.now() - last.at < (opts.cacheMs ?? 500);
    const report = fresh ? last!.report : await (inFlight ??= probe().finally(() => (inFlight = undefined)));
    if (!fresh) last = { at: Date.now(), report };
    res.setHeader('Cache-Control', 'no-store');
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  };
}
