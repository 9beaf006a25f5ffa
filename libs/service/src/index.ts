import type { DataSource, MixedList } from 'typeorm';
import { healthRpc } from '@postbus/contracts';
import { openBus, type Bus, type RpcServer } from '@postbus/bus';
import {
  bool,
  commonVars,
  createLogger,
  Lifecycle,
  openDataSource,
  redactUrl,
  str,
  type ConfigOf,
  type Logger,
  type MigrationClass,
} from '@postbus/kit';
import { ServiceMetrics } from '@postbus/metrics';
import { busKeyVars, serviceBusKeys } from './bus-keys';
import { metricsPortOf, metricsPortVar } from './metrics-port';
import { startOpsServer, type Checks } from './ops-server';

export const serviceVars = {
  ...commonVars,
  ...busKeyVars,
  BUS_EPHEMERAL: bool('Queues expire once unused (tests only)', false),
  METRICS_PORT: metricsPortVar,
  METRICS_HOST: str('Interface the operations listener binds (probes and Prometheus reach it there)', '0.0.0.0'),
};
export type ServiceConfig = ConfigOf<typeof serviceVars>;

export interface ServiceRuntime {
  name: string;
  logger: Logger;
  lifecycle: Lifecycle;
  bus: Bus;
  rpc: RpcServer;
  ds?: DataSource;
  /** This service's Prometheus metrics (the bus reports to it; add outboxes, lags, outcomes). */
  metrics: ServiceMetrics;
  /** Base URL of the operations listener: `${metricsUrl}/metrics`, `/healthz`, `/readyz`. */
  metricsUrl: string;
}

/**
 * The part of every composition root that is the same: logger, database (own schema,
 * migrated), bus, an RPC server answering `<service>.health`, and ordered shutdown.
 * The caller registers its handlers and consumers, then calls `rpc.start()`.
 * Its operations listener (METRICS_PORT) answers /metrics, /healthz and /readyz; the bus
 * reports RPCs and handled events to `metrics`.
 */
export async function bootService(opts: {
  name: string;
  config: ServiceConfig;
  schema?: string;
  migrations?: MixedList<MigrationClass>;
  rpcPrefetch?: number;
}): Promise<ServiceRuntime> {
  const { config } = opts;
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger);
  const metrics = new ServiceMetrics(opts.name);
  const keys = serviceBusKeys(config);
  let ds: DataSource | undefined;
  try {
    if (opts.schema) {
      ds = await openDataSource({
        url: config.DATABASE_URL,
        schema: opts.schema,
        migrations: opts.migrations ?? [],
      }).catch((err: Error) => {
        throw new Error(`${opts.name}: cannot open PostgreSQL (${redactUrl(config.DATABASE_URL)}): ${err.message}`);
      });
      const dsRef = ds;
      lifecycle.onStop('database', () => dsRef.destroy());
    }
    const bus = await openBus({
      url: config.AMQP_URL,
      namespace: config.BUS_NAMESPACE,
      logger,
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
      ephemeral: config.BUS_EPHEMERAL,
      observer: metrics,
      keys,
    });
    lifecycle.onStop('bus', () => bus.close());
    const rpc = bus.serve(opts.name, { prefetch: opts.rpcPrefetch });
    rpc.handle(healthRpc(opts.name), async () => {
      const checks: Record<string, string> = { broker: bus.connection.connected ? 'ok' : 'down' };
      if (ds)
        checks.database = await ds.query('SELECT 1').then(
          () => 'ok',
          () => 'down',
        );
      return {
        service: opts.name,
        status: Object.values(checks).every((c) => c === 'ok') ? ('ok' as const) : ('degraded' as const),
        checks,
      };
    });
    lifecycle.onStop('rpc', () => rpc.stop());
    const ops = await startOpsServer({
      port: metricsPortOf(opts.name, config.METRICS_PORT),
      host: config.METRICS_HOST,
      metrics,
      checks: dependencyChecks(metrics, bus, ds),
      started: () => lifecycle.started,
      draining: () => lifecycle.draining,
    });
    lifecycle.onStop('operations listener', () => ops.close());
    logger.debug('operations listener', { url: ops.url });
    return { name: opts.name, logger, lifecycle, bus, rpc, ds, metrics, metricsUrl: ops.url };
  } catch (err) {
    await lifecycle.stop();
    throw err;
  }
}

/** Readiness: the broker connection is up and the database answers within a second. */
function dependencyChecks(metrics: ServiceMetrics, bus: Bus, ds: DataSource | undefined): () => Promise<Checks> {
  const broker = async () => bus.connection.connected;
  const database =
    ds &&
    (() =>
      Promise.race([
        ds.query('SELECT 1').then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1000).unref()),
      ]));
  metrics.trackDependency('broker', broker);
  if (database) metrics.trackDependency('database', database);
  return async () => {
    const checks: Checks = { broker: (await broker()) ? 'ok' : 'down' };
    if (database) checks.database = (await database()) ? 'ok' : 'down';
    return checks;
  };
}

export * from './http';
export { DEFAULT_METRICS_PORTS } from './metrics-port';
export { httpMetrics, type ServiceMetrics } from '@postbus/metrics';
export * from './post-outcomes';
