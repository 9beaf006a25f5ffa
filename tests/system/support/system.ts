import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentBrokerUrls, type Bus } from '@postbus/bus';
import { DATABASE_SERVICES, databaseRoleOf, databaseUrlAs, provisionServiceRoles } from '@postbus/kit';
import { start as startAuth } from '@postbus/auth';
import { start as startAutomation } from '@postbus/automation';
import { start as startConnections } from '@postbus/connections';
import { start as startGateway } from '@postbus/gateway';
import { start as startMcp } from '@postbus/mcp';
import { start as startMedia } from '@postbus/media';
import { start as startPosts } from '@postbus/posts';
import { start as startPublisher } from '@postbus/publisher';
import { startSandbox } from '@postbus/sandbox';
import { start as startTranscoder } from '@postbus/transcoder';
import { start as startWebhooks } from '@postbus/webhooks';
import { freePort, openTestBus, seedAccount, type SeededAccount, type TestEnv } from '@postbus/testing';

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
  seedAccount(opts?: {
    platforms?: string[];
    scopes?: string[];
    plan?: string;
    tester?: boolean;
  }): Promise<SeededAccount>;
  /** Stops one service (to see the rest cope); the others keep running. */
  stopService(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Boots every service and the sandbox in this process, against the test env's database and namespace.
 * `deps` hands a service's start() its second argument by name, e.g. `{ media: { resolve } }` to play DNS answers.
 */
export async function startSystem(
  testEnv: TestEnv,
  extraEnv: Record<string, string> = {},
  deps: Record<string, unknown> = {},
): Promise<RunningSystem> {
  await provisionServiceRoles(testEnv.databaseUrl);
  const ownCredentials = credentialsFor(testEnv);
  const gatewayPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  // Stored media is served under {base_url}/files/: the one prefix the test system's TikTok app has verified.
  const verifiedMedia = `${baseUrl}/files/`;
  const sandbox = await startSandbox({
    port: 0,
    processingDelayMs: 0,
    tiktok: { verifiedUrlPrefixes: [verifiedMedia] },
    // Postbus as a confidential Bluesky OAuth client publishes its metadata on this machine's http address.
    blueskyOAuth: { allowLoopbackClientMetadata: extraEnv.SANDBOX_BLUESKY_LOOPBACK_CLIENT_METADATA === 'true' },
  });
  const env = systemEnv(testEnv, { baseUrl, sandboxUrl: sandbox.url, verifiedMedia }, extraEnv);
  const stops: (() => Promise<void>)[] = [
    () => rm(env.MEDIA_LOCAL_DIR, { recursive: true, force: true }),
    () => sandbox.close(),
  ];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const gatewayEnv: Record<string, string> = { ...env, ...ownCredentials('gateway'), PORT: String(gatewayPort) };
    const { running, metricsUrls, httpUrls, mcpHostUrl } = await startServices(
      env,
      ownCredentials,
      deps,
      stops,
      gatewayEnv,
    );
    const gateway = await startGateway(gatewayEnv);
    stops.push(() => gateway.lifecycle.stop());
    gateway.lifecycle.markStarted();
    metricsUrls.gateway = gateway.metricsUrl;
    const bus = await openTestBus(testEnv);
    stops.push(() => bus.close());
    return {
      baseUrl,
      sandboxUrl: sandbox.url,
      mcpHostUrl,
      bus,
      metricsUrls,
      httpUrls,
      seedAccount: (opts = {}) =>
        seedAccount(bus.rpc, sandbox.url, { email: `dev-${randomBytes(4).toString('hex')}@example.com`, ...opts }),
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

/**
 * As deployed, each service connects with a database role of its own that reaches only its own schema,
 * and a broker user of its own that reaches only its own queues (created once per run, by jest's globalSetup).
 */
function credentialsFor(testEnv: TestEnv): (name: string) => Record<string, string> {
  const ownDatabaseUrl = (name: string): Record<string, string> =>
    (DATABASE_SERVICES as readonly string[]).includes(name)
      ? { DATABASE_URL: databaseUrlAs(testEnv.databaseUrl, databaseRoleOf(name)) }
      : {};
  const brokerUrls = developmentBrokerUrls(testEnv.amqpUrl);
  return (name) => ({
    ...ownDatabaseUrl(name),
    ...(brokerUrls[name] && { AMQP_URL: brokerUrls[name] }),
  });
}

/** Every service but the gateway, in start order: media before the transcoder, which reaches it. */
const SERVICES = {
  auth: startAuth,
  connections: startConnections,
  posts: startPosts,
  media: startMedia,
  transcoder: startTranscoder,
  publisher: startPublisher,
  mcp: startMcp,
  webhooks: startWebhooks,
  automation: startAutomation,
};

interface StartedServices {
  running: Map<string, { stop(): Promise<void> }>;
  metricsUrls: Record<string, string>;
  httpUrls: Record<string, string>;
  mcpHostUrl: string;
}

/**
 * Starts the services one after another. Those with HTTP of their own listen on a free port, and
 * `gatewayEnv` is told where they are; each one's stop is added to `stops` as soon as it runs.
 */
async function startServices(
  env: Record<string, string>,
  ownCredentials: (name: string) => Record<string, string>,
  deps: Record<string, unknown>,
  stops: (() => Promise<void>)[],
  gatewayEnv: Record<string, string>,
): Promise<StartedServices> {
  const started: StartedServices = { running: new Map(), metricsUrls: {}, httpUrls: {}, mcpHostUrl: '' };
  const { running, metricsUrls, httpUrls } = started;
  for (const [name, start] of Object.entries(SERVICES)) {
    const upper = name.toUpperCase();
    // The transcoder reads sources from and sends renditions to media's own listener, started before it.
    const own: Record<string, string> = name === 'transcoder' ? { MEDIA_HTTP_URL: httpUrls.media } : {};
    const svc = (await (start as (env: Record<string, string>, deps?: unknown) => Promise<unknown>)(
      { ...env, ...own, ...ownCredentials(name), [`${upper}_HTTP_PORT`]: '0' },
      deps[name],
    )) as { lifecycle: { stop(): Promise<void>; markStarted(): void }; httpUrl?: string; metricsUrl?: string };
    svc.lifecycle.markStarted();
    if (svc.metricsUrl) metricsUrls[name] = svc.metricsUrl;
    stops.push(() => svc.lifecycle.stop());
    running.set(name, svc.lifecycle);
    if (svc.httpUrl) gatewayEnv[`${upper}_HTTP_URL`] = httpUrls[name] = svc.httpUrl;
    if (name === 'mcp') started.mcpHostUrl = (svc as { hostUrl?: string }).hostUrl ?? '';
  }
  return started;
}

/** The environment every service of the test system starts with: loopback allowed, limits off, the sandbox for every platform. */
function systemEnv(
  testEnv: TestEnv,
  at: { baseUrl: string; sandboxUrl: string; verifiedMedia: string },
  extraEnv: Record<string, string>,
): Record<string, string> {
  return {
    ...testEnv.env,
    PUBLIC_BASE_URL: at.baseUrl,
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
    THREADS_API_URL: `${at.sandboxUrl}/threads`,
    SANDBOX_URL: at.sandboxUrl,
    MEDIA_ALLOW_LOOPBACK_IMPORTS: 'true',
    PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    MEDIA_LOCAL_DIR: join(tmpdir(), `postbus-media-${testEnv.namespace}`),
    TIKTOK_PULL_URL_PREFIXES: at.verifiedMedia,
    ...extraEnv,
  };
}
