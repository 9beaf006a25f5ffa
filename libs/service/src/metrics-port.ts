import type { VarSpec } from '@postbus/kit';

/**
 * Where each service's operations listener (/metrics, /healthz, /readyz) listens when
 * METRICS_PORT is not set: apart, so that every service can run on one machine (`npm start`).
 * Containers set METRICS_PORT=9464 for all (each has a network of its own).
 */
export const DEFAULT_METRICS_PORTS: Record<string, number> = {
  gateway: 9400,
  auth: 9401,
  media: 9402,
  mcp: 9403,
  connections: 9404,
  posts: 9405,
  publisher: 9406,
  webhooks: 9407,
  automation: 9408,
  transcoder: 9409,
};
export const FALLBACK_METRICS_PORT = 9464;

export function metricsPortOf(service: string, configured: number | null): number {
  return configured ?? DEFAULT_METRICS_PORTS[service] ?? FALLBACK_METRICS_PORT;
}

/** METRICS_PORT: a port (0 picks a free one), or unset for the service's default. */
export const metricsPortVar: VarSpec<number | null> = {
  doc: "Port of the operations listener (/metrics, /healthz, /readyz); unset: the service's own default (gateway 9400 … publisher 9406), 0: any free port",
  default: null,
  parse(raw) {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new Error('expected a port number (0–65535)');
    return n;
  },
};
