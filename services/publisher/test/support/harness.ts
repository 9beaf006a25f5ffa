import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'amqplib';
import type { Bus } from '@postbus/bus';
import { Events, Rpc, type PostDue } from '@postbus/contracts';
import { start as startConnections } from '@postbus/connections';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '@postbus/sandbox';
import { callSandbox, createTestEnv, FAST_PUBLISHER_ENV, openTestBus, waitFor, type TestEnv } from '@postbus/testing';
import { start as startPublisher } from '../../src/main';

export interface Outcome {
  id: string;
  name: 'post.published' | 'post.failed';
  data: {
    postId: string;
    platformPostId?: string;
    permalink?: string | null;
    reason?: string;
    warnings?: { code: string; message: string }[];
  };
}

export interface SandboxProfile {
  profileId: string;
  userId: string;
  accessToken: string;
  handle: string;
  platform: string;
}

type Service = { lifecycle: { stop(): Promise<void> } };

/**
 * One test file's world: an isolated database and bus namespace, the platform sandbox, the real
 * connections service (credentials) and one publisher process, plus a bus client that publishes
 * post.due and collects post.published / post.failed.
 */
export interface PublisherHarness {
  env: TestEnv;
  sandbox: RunningSandbox;
  bus: Bus;
  accountId: string;
  publisherEnv: Record<string, string>;
  outcomes: Outcome[];
  profile(platform: string, handle?: string): Promise<SandboxProfile>;
  due(profile: SandboxProfile, fields?: Partial<PostDue>): PostDue;
  publish(...jobs: PostDue[]): Promise<void>;
  outcome(postId: string, timeoutMs?: number): Promise<Outcome>;
  attempt(postId: string): Promise<Record<string, any> | undefined>;
  query(sql: string, params?: unknown[]): Promise<any[]>;
  deadLetters(): Promise<{ postId: string; error: string }[]>;
  /** How many consumers the publishers' work queue has (0 before any publisher declared it). */
  dueConsumers(): Promise<number>;
  startPublisher(extraEnv?: Record<string, string>): Promise<Service>;
  stopPublisher(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPublisherHarness(
  label: string,
  opts: {
    sandbox?: StartSandboxOptions;
    env?: Record<string, string>;
    /** false: the test starts its own publishers. */ publisher?: boolean;
  } = {},
): Promise<PublisherHarness> {
  const env = await createTestEnv(label);
  // The sandbox's TikTok verifies what the publisher is told is verified (and nothing, when it is told nothing).
  const verifiedUrlPrefixes = (opts.env?.TIKTOK_PULL_URL_PREFIXES ?? '').split(',').filter(Boolean);
  const sandbox = await startSandbox({
    port: 0,
    processingDelayMs: 0,
    ...opts.sandbox,
    tiktok: { verifiedUrlPrefixes, ...opts.sandbox?.tiktok },
  });
  const db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
  const base = { ...env.env, SANDBOX_URL: sandbox.url };
  const connections = (await startConnections({ ...base, CONNECTIONS_HTTP_PORT: '0' })) as Service;
  const publisherEnv = { ...base, ...FAST_PUBLISHER_ENV, ...opts.env };
  let publisher: Service | undefined = opts.publisher === false ? undefined : await startPublisher(publisherEnv);
  const bus = await openTestBus(env);
  const outcomes: Outcome[] = [];
  const collector = bus.consume({
    queue: `test.outcomes.${randomBytes(3).toString('hex')}`,
    perProcess: true,
    events: [Events.postPublished.name, Events.postFailed.name],
    handler: async (event) =>
      void outcomes.push({ id: event.id, name: event.name as Outcome['name'], data: event.data as Outcome['data'] }),
  });
  await collector.start();
  const accountId = `acc_${randomBytes(6).toString('hex')}`;

  return {
    env,
    sandbox,
    bus,
    accountId,
    publisherEnv,
    outcomes,
    async profile(platform, handle = `${platform}_${randomBytes(3).toString('hex')}`) {
      const res = await fetch(`${sandbox.url}/__sandbox/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ platform, handle }),
      });
      const user = (await res.json()) as { userId: string; accessToken: string; handle: string };
      const profile = await bus.rpc.call(Rpc.connectionsSeedProfile, {
        accountId,
        platform,
        platformUserId: user.userId,
        handle: user.handle,
        accessToken: user.accessToken,
      });
      return {
        profileId: profile.id,
        userId: user.userId,
        accessToken: user.accessToken,
        handle: user.handle,
        platform,
      };
    },
    due(profile, fields = {}) {
      const now = new Date().toISOString();
      return {
        postId: `pst_${randomBytes(8).toString('hex')}`,
        accountId,
        profileId: profile.profileId,
        platform: profile.platform,
        caption: 'Hello from Postbus',
        title: null,
        mediaUrls: [],
        platformMeta: null,
        scheduledTime: now,
        dispatchedAt: now,
        ...fields,
      };
    },
    async publish(...jobs) {
      await bus.events.publish(jobs.map((data) => ({ name: Events.postDue.name, data })));
    },
    outcome(postId, timeoutMs = 15_000) {
      return waitFor(() => outcomes.find((o) => o.data.postId === postId), {
        timeoutMs,
        what: `the outcome of ${postId}`,
      });
    },
    async attempt(postId) {
      const { rows } = await db.query('SELECT * FROM publisher.attempts WHERE post_id = $1', [postId]);
      return rows[0];
    },
    async query(sql, params = []) {
      return (await db.query(sql, params)).rows;
    },
    async deadLetters() {
      const amqp = await connect(env.amqpUrl);
      const ch = await amqp.createChannel();
      const out: { postId: string; error: string }[] = [];
      try {
        // Unacked until the channel closes, so each message is read once and then stays in the queue.
        for (;;) {
          const msg = await ch.get(`${env.namespace}.publisher.due.dead`, { noAck: false });
          if (!msg) break;
          out.push({
            postId: JSON.parse(msg.content.toString()).data.postId,
            error: String(msg.properties.headers?.['x-error'] ?? ''),
          });
        }
      } finally {
        await amqp.close().catch(() => undefined);
      }
      return out;
    },
    async dueConsumers() {
      const amqp = await connect(env.amqpUrl);
      try {
        const ch = await amqp.createChannel();
        ch.on('error', () => undefined);
        return (await ch.checkQueue(`${env.namespace}.publisher.due`)).consumerCount;
      } catch {
        return 0;
      } finally {
        await amqp.close().catch(() => undefined);
      }
    },
    async startPublisher(extraEnv = {}) {
      publisher = await startPublisher({ ...publisherEnv, ...extraEnv });
      return publisher;
    },
    async stopPublisher() {
      await publisher?.lifecycle.stop();
      publisher = undefined;
    },
    async stop() {
      await collector.stop().catch(() => undefined);
      await publisher?.lifecycle.stop().catch(() => undefined);
      await connections.lifecycle.stop().catch(() => undefined);
      await bus.close().catch(() => undefined);
      await sandbox.close().catch(() => undefined);
      await db.end().catch(() => undefined);
      await env.drop();
    },
  };
}

export async function publishedOn(sandbox: RunningSandbox, platform: string): Promise<any[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/published?platform=${platform}`);
  return (await res.json()) as any[];
}

export function sandboxControl(sandbox: RunningSandbox, method: string, path: string, body?: unknown) {
  return callSandbox<any>(sandbox.url, method, path, body);
}
