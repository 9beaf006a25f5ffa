import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBus, provisionBrokerUsers, type Bus, type DefinitionsImporter } from '@postbus/bus';
import { createLogger, DATABASE_SERVICES, databaseRoleOf, databaseUrlAs, provisionServiceRoles } from '@postbus/kit';
import { freePort, seedAccount, type SeededAccount } from '@postbus/testing';
import { SERVICE_NODE_OPTIONS } from '../../scripts/service-node-options';
import { answers, ROOT, ServiceProcess } from './service-process';

export interface LocalSystemOptions {
  /** An administrator's URLs: each service gets a role and a broker user of its own made through them. */
  databaseUrl: string;
  amqpUrl: string;
  /** How the broker users are made on a broker of the harness's own (its rabbitmqctl); default: the machine's broker. */
  importBrokerDefinitions?: DefinitionsImporter;
  namespace: string;
  /** Variables every service gets on top of the system's own (e.g. BUS_EPHEMERAL, LOG_LEVEL). */
  env?: Record<string, string>;
  /** Variables for one service only, by name. */
  serviceEnv?: Record<string, Record<string, string>>;
  /** Node flags for one service, by name (e.g. `--cpu-prof`). */
  nodeArgs?: Record<string, string[]>;
  /** How many publisher processes (default 1). */
  publishers?: number;
  /** Called when a process dies without being told to. */
  onCrash?: (name: string, code: number | null, signal: string | null, tail: string) => void;
}

export interface LocalSystem {
  baseUrl: string;
  sandboxUrl: string;
  /** Every process, the sandbox first, the gateway last. */
  processes: ServiceProcess[];
  /** The processes of one service (publishers: several). */
  of(name: string): ServiceProcess[];
  /** A bus client in the system's namespace (operator-style RPCs). */
  bus: Bus;
  seedAccount(opts?: {
    platforms?: string[];
    scopes?: string[];
    plan?: string;
    tester?: boolean;
  }): Promise<SeededAccount>;
  /** Starts one more publisher process and waits until it is ready. */
  addPublisher(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** Services that have a composition root, found on disk so that a new one is started too. */
export function serviceNames(): string[] {
  return readdirSync(join(ROOT, 'services'))
    .filter(
      (name) => name !== 'sandbox' && name !== 'gateway' && existsSync(join(ROOT, 'services', name, 'src', 'main.ts')),
    )
    .sort();
}

/**
 * The whole system as `npm start` runs it: the sandbox and every service each in its own
 * process, on free ports of this machine, against the given database and broker.
 */
export async function startLocalSystem(opts: LocalSystemOptions): Promise<LocalSystem> {
  const names = serviceNames();
  const gatewayPort = await freePort();
  const sandboxPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const mediaDir = join(tmpdir(), `postbus-media-${randomBytes(4).toString('hex')}`);
  // As deployed: each service logs in as its own PostgreSQL role and RabbitMQ user, which reach only its own tables and queues.
  await provisionServiceRoles(opts.databaseUrl);
  const brokerUrls = await provisionBrokerUsers(opts.amqpUrl, { importDefinitions: opts.importBrokerDefinitions });
  const credentialsOf = (name: string): Record<string, string> => ({
    ...((DATABASE_SERVICES as readonly string[]).includes(name) && {
      DATABASE_URL: databaseUrlAs(opts.databaseUrl, databaseRoleOf(name)),
    }),
    ...(brokerUrls[name] && { AMQP_URL: brokerUrls[name] }),
  });
  const common: Record<string, string> = {
    BUS_NAMESPACE: opts.namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    SANDBOX_URL: sandboxUrl,
    THREADS_API_URL: `${sandboxUrl}/threads`,
    MEDIA_LOCAL_DIR: mediaDir,
    MCP_HOST_PORT: String(await freePort()),
    // The heap sizing npm start gives every service.
    NODE_OPTIONS: process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
    ...opts.env,
  };
  const httpPorts: Record<string, number> = {};
  for (const name of names) httpPorts[name] = await freePort();

  const processes: ServiceProcess[] = [];
  const sandbox = new ServiceProcess({
    name: 'sandbox',
    entry: 'services/sandbox/src/main.ts',
    env: {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_PROCESSING_DELAY_MS: '0',
      NODE_OPTIONS: common.NODE_OPTIONS,
      ...opts.serviceEnv?.sandbox,
    },
    nodeArgs: opts.nodeArgs?.sandbox,
    ready: answers(`${sandboxUrl}/__sandbox/faults`),
  });
  processes.push(sandbox);

  let publisherCount = 0;
  const serviceProcess = async (name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> => {
    const metricsPort = await freePort();
    const upper = name.toUpperCase();
    const label = name === 'publisher' ? `publisher#${++publisherCount}` : name;
    const p = new ServiceProcess({
      name: label,
      entry: `services/${name}/src/main.ts`,
      env: {
        ...common,
        ...credentialsOf(name),
        [`${upper}_HTTP_PORT`]: String(httpPorts[name] ?? 0),
        METRICS_PORT: String(metricsPort),
        ...opts.serviceEnv?.[name],
        ...extra,
      },
      nodeArgs: opts.nodeArgs?.[name],
      ready: answers(`http://127.0.0.1:${metricsPort}/readyz`),
      metricsUrl: `http://127.0.0.1:${metricsPort}`,
    });
    p.onCrash = opts.onCrash;
    return p;
  };
  for (const name of names) {
    const count = name === 'publisher' ? (opts.publishers ?? 1) : 1;
    // The transcoder reads sources from and sends renditions to media's own listener.
    const own: Record<string, string> =
      name === 'transcoder' ? { MEDIA_HTTP_URL: `http://127.0.0.1:${httpPorts.media}` } : {};
    for (let i = 0; i < count; i++) processes.push(await serviceProcess(name, own));
  }
  const gatewayEnv: Record<string, string> = { PORT: String(gatewayPort) };
  for (const name of names) gatewayEnv[`${name.toUpperCase()}_HTTP_URL`] = `http://127.0.0.1:${httpPorts[name]}`;
  processes.push(await serviceProcess('gateway', gatewayEnv));
  sandbox.onCrash = opts.onCrash;

  let bus: Bus | undefined;
  const stop = async () => {
    await bus?.close().catch(() => undefined);
    // The edge first, the sandbox last: what is in flight finishes against a live platform.
    for (const p of [...processes].reverse()) await p.stop();
    await rm(mediaDir, { recursive: true, force: true });
  };
  try {
    sandbox.start();
    await sandbox.waitReady();
    // Each service migrates its own schema at start; they start side by side, as under npm start.
    // Further publishers join once the first one is up, as replicas added to a running system do.
    const extraPublishers = processes.filter((p) => p.name.startsWith('publisher#') && p.name !== 'publisher#1');
    const services = processes.filter((p) => p !== sandbox && p.name !== 'gateway' && !extraPublishers.includes(p));
    for (const p of services) p.start();
    await Promise.all(services.map((p) => p.waitReady(180_000)));
    for (const p of extraPublishers) p.start();
    await Promise.all(extraPublishers.map((p) => p.waitReady(120_000)));
    const gateway = processes.at(-1)!;
    gateway.start();
    await gateway.waitReady(120_000);
    bus = await openBus({
      url: opts.amqpUrl,
      namespace: opts.namespace,
      logger: createLogger('harness', 'silent'),
      rpcTimeoutMs: 15_000,
      ephemeral: opts.env?.BUS_EPHEMERAL === 'true',
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const connectedBus = bus;
  return {
    baseUrl,
    sandboxUrl,
    processes,
    bus: connectedBus,
    of: (name) => processes.filter((p) => p.name === name || p.name.startsWith(`${name}#`)),
    seedAccount: (o = {}) =>
      seedAccount(connectedBus.rpc, sandboxUrl, {
        email: `harness-${randomBytes(4).toString('hex')}@example.com`,
        ...o,
      }),
    async addPublisher() {
      const p = await serviceProcess('publisher');
      processes.splice(processes.length - 1, 0, p);
      p.start();
      await p.waitReady(120_000);
      return p;
    },
    stop,
  };
}
