import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { developmentBrokerUrls, openBus, type Bus } from '@postbus/bus';
import { createLogger, DATABASE_SERVICES, databaseRoleOf, databaseUrlAs, provisionServiceRoles } from '@postbus/kit';
import { start as startAuth } from '@postbus/auth';
import { start as startAutomation } from '@postbus/automation';
import { start as startConnections } from '@postbus/connections';
import { start as startGateway } from '@postbus/gateway';
import { start as startMcp } from '@postbus/mcp';
import { start as startMedia } from '@postbus/media';
import { start as startPosts } from '@postbus/posts';
import { start as startPublisher } from '@postbus/publisher';
import { startSandbox } from '@postbus/sandbox';
import { start as startWebhooks } from '@postbus/webhooks';
import { seedAccount, type SeededAccount } from './seed';
import type { TestEnv } from './test-env';

export interface RunningSystem {
  baseUrl: string;
  sandboxUrl: string;
  /** `{mcp_host}`: the mcp service's second (deprecated) listener, POST /auth and /mcp. */
  mcpHostUrl: string;
  /** A bus client in the system's namespace, for operator-style calls in tests. */
  bus: Bus;
  /** Each service's operations listener (`${url}/metrics`, `/healthz`, `/readyz`), by service name. */
  metricsUrls: Record<string, string>;
  /** The HTTP listeners the gateway streams to (auth, media, mcp, …), by service name: to reach one without the gateway. */
  httpUrls: Record<string, string>;
  seedAccount(opts?: { platforms?: string[]; scopes?: string[]; plan?: string; tester?: boolean }): Promise<SeededAccount>;
  /** Stops one service (to see the rest cope); the others keep running. */
  stopService(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** Ports handed out by freePort in this process, never handed out twice. */
const handedOut = new Set<number>();

/**
 * A port that was free a moment ago, so URLs under the gateway can be known before it starts.
 * Taken below the kernel's ephemeral range (32768–60999 on Linux), where listeners on port 0
 * and outgoing connections of other test files never land while this one is not yet bound.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    handedOut.add(port);
    return port;
  }
}

/**
 * Boots every service and the sandbox in this process, against the test env's database and namespace.
 * `deps` hands a service's start() its second argument by name, e.g. `{ media: { resolve } }` to play DNS answers.
 */
export async function startSystem(testEnv: TestEnv, extraEnv: Record<string, string> = {}, deps: Record<string, unknown> = {}): Promise<RunningSystem> {
  // As deployed: each service connects with a role of its own that reaches only its own schema.
  await provisionServiceRoles(testEnv.databaseUrl);
  const ownDatabaseUrl = (name: string): Record<string, string> => ((DATABASE_SERVICES as readonly string[]).includes(name) ? { DATABASE_URL: databaseUrlAs(testEnv.databaseUrl, databaseRoleOf(name)) } : {});
  // And a broker user of its own that reaches only its own queues (created once per run, by jest's globalSetup).
  const brokerUrls = developmentBrokerUrls(testEnv.amqpUrl);
  const ownCredentials = (name: string): Record<string, string> => ({ ...ownDatabaseUrl(name), ...(brokerUrls[name] && { AMQP_URL: brokerUrls[name] }) });
  const gatewayPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  // Stored media is served under {base_url}/files/: the one prefix the test system's TikTok app has verified.
  const verifiedMedia = `${baseUrl}/files/`;
  const sandbox = await startSandbox({ port: 0, processingDelayMs: 0, tiktok: { verifiedUrlPrefixes: [verifiedMedia] } });
  const env: Record<string, string> = {
    ...testEnv.env,
    PUBLIC_BASE_URL: baseUrl,
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    MCP_HOST_PORT: '0',
    SCHEDULER_TICK_MS: '200',
    PLATFORM_POLL_INTERVAL_MS: '20',
    // Tests poll every 50 ms with one key; the per-key limit has its own test (RATE_LIMIT_PER_MINUTE in extraEnv).
    RATE_LIMIT_PER_MINUTE: '100000',
    // Every test request comes from 127.0.0.1: the per-address limits are off unless a test turns them on.
    RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_ATTEMPTS_PER_IP: '0',
    PUBLISHER_RETRY_DELAYS_MS: '100,200',
    THREADS_API_URL: `${sandbox.url}/threads`,
    SANDBOX_URL: sandbox.url,
    MEDIA_ALLOW_LOOPBACK_IMPORTS: 'true',
    PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    MEDIA_LOCAL_DIR: join(tmpdir(), `postbus-media-${testEnv.namespace}`),
    TIKTOK_PULL_URL_PREFIXES: verifiedMedia,
    ...extraEnv,
  };
  const stops: (() => Promise<void>)[] = [() => rm(env.MEDIA_LOCAL_DIR, { recursive: true, force: true }), () => sandbox.close()];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    // Services with HTTP of their own listen on a free port; the gateway is told where they are.
    const services = { auth: startAuth, connections: startConnections, posts: startPosts, media: startMedia, publisher: startPublisher, mcp: startMcp, webhooks: startWebhooks, automation: startAutomation };
    const gatewayEnv: Record<string, string> = { ...env, ...ownCredentials('gateway'), PORT: String(gatewayPort) };
    const running = new Map<string, { stop(): Promise<void> }>();
    const metricsUrls: Record<string, string> = {};
    const httpUrls: Record<string, string> = {};
    let mcpHostUrl = '';
    for (const [name, start] of Object.entries(services)) {
      const upper = name.toUpperCase();
      const svc = (await (start as (env: Record<string, string>, deps?: unknown) => Promise<unknown>)({ ...env, ...ownCredentials(name), [`${upper}_HTTP_PORT`]: '0' }, deps[name])) as { lifecycle: { stop(): Promise<void>; markStarted(): void }; httpUrl?: string; metricsUrl?: string };
      svc.lifecycle.markStarted();
      if (svc.metricsUrl) metricsUrls[name] = svc.metricsUrl;
      stops.push(() => svc.lifecycle.stop());
      running.set(name, svc.lifecycle);
      if (svc.httpUrl) gatewayEnv[`${upper}_HTTP_URL`] = httpUrls[name] = svc.httpUrl;
      if (name === 'mcp') mcpHostUrl = (svc as { hostUrl?: string }).hostUrl ?? '';
    }
    const gateway = await startGateway(gatewayEnv);
    stops.push(() => gateway.lifecycle.stop());
    gateway.lifecycle.markStarted();
    metricsUrls.gateway = gateway.metricsUrl;
    const bus = await openBus({ url: testEnv.amqpUrl, namespace: testEnv.namespace, logger: createLogger('test', 'silent'), rpcTimeoutMs: 5000, ephemeral: true });
    stops.push(() => bus.close());
    return {
      baseUrl,
      sandboxUrl: sandbox.url,
      mcpHostUrl,
      bus,
      metricsUrls,
      httpUrls,
      seedAccount: (opts = {}) => seedAccount(bus.rpc, sandbox.url, { email: `dev-${randomBytes(4).toString('hex')}@example.com`, ...opts }),
      stopService: async (name) => {
        const svc = running.get(name);
        if (!svc) throw new Error(`no service ${name}`);
        await svc.stop();
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
