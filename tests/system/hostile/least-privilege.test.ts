import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { Client } from 'pg';
import { DEV_BUS_PRINCIPAL_KEY, developmentBrokerUrls, openBus, type Bus } from '@postbus/bus';
import { Rpc } from '@postbus/contracts';
import { createLogger, databaseRoleOf, databaseUrlAs } from '@postbus/kit';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
// Both services of the pair, started the way a misconfigured deployment would start them.
import { start as startConnections } from '@postbus/connections';
import { start as startPosts } from '@postbus/posts';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let raw: { model: ChannelModel; ch: Channel; replies: Map<string, (reply: any) => void> };
const buses: Bus[] = [];

beforeAll(async () => {
  env = await createTestEnv('least_privilege');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  const model = await connect(env.amqpUrl);
  const ch = await model.createChannel();
  raw = { model, ch, replies: new Map() };
  await ch.consume(
    'amq.rabbitmq.reply-to',
    (msg) => msg && raw.replies.get(msg.properties.correlationId)?.(JSON.parse(msg.content.toString())),
    { noAck: true },
  );
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  await raw?.model.close().catch(() => undefined);
  await system?.stop();
  await env?.drop();
});

const as = (service: string) => databaseUrlAs(env.databaseUrl, databaseRoleOf(service));

async function sqlAs(service: string, sql: string, params: unknown[] = []): Promise<string> {
  const c = new Client({ connectionString: as(service) });
  await c.connect();
  try {
    await c.query(sql, params);
    return 'allowed';
  } catch (err) {
    return (err as { code: string }).code;
  } finally {
    await c.end();
  }
}

async function busWith(keys: { call?: string; operator?: string }): Promise<Bus> {
  const bus = await openBus({
    url: env.amqpUrl,
    namespace: env.namespace,
    logger: createLogger('test', 'silent'),
    rpcTimeoutMs: 5000,
    ephemeral: true,
    keys,
  });
  buses.push(bus);
  return bus;
}

/** A request published by hand, as anything that merely reached the broker could. */
function rawCall(type: string, body: unknown): Promise<any> {
  const correlationId = randomUUID();
  const reply = new Promise((resolve) => raw.replies.set(correlationId, resolve));
  raw.ch.sendToQueue(`${env.namespace}.rpc.${type.split('.')[0]}`, Buffer.from(JSON.stringify(body)), {
    correlationId,
    replyTo: 'amq.rabbitmq.reply-to',
    type,
    headers: { 'x-deadline': Date.now() + 5000 },
  });
  return reply;
}

describe('each service reaches only its own tables', () => {
  it("when posts' role reaches for connections' tables (where the platform tokens live), then every read and write is refused", async () => {
    expect(await sqlAs('posts', 'SELECT * FROM connections.profiles')).toBe('42501');
    expect(await sqlAs('posts', "UPDATE connections.profiles SET handle = 'taken'")).toBe('42501');
    expect(await sqlAs('posts', 'DELETE FROM connections.profiles')).toBe('42501');
    expect(await sqlAs('connections', 'SELECT 1')).toBe('allowed');
    expect(await sqlAs('connections', 'SELECT count(*) FROM connections.profiles')).toBe('allowed');
  });

  it("when connections' role reaches for posts' tables, then every read and write is refused", async () => {
    expect(await sqlAs('connections', 'SELECT * FROM posts.posts')).toBe('42501');
    expect(
      await sqlAs('connections', 'INSERT INTO posts.outbox (id, name, data) VALUES (gen_random_uuid(), $1, $2)', [
        'post.due',
        '{}',
      ]),
    ).toBe('42501');
    expect(await sqlAs('posts', 'SELECT count(*) FROM posts.posts')).toBe('allowed');
  });

  it("when a service is started with another service's database role, then it does not start", async () => {
    await expect(startPosts({ ...env.env, DATABASE_URL: as('connections'), POSTS_HTTP_PORT: '0' })).rejects.toThrow(
      /permission denied for schema posts/,
    );
    await expect(
      startConnections({ ...env.env, DATABASE_URL: as('posts'), CONNECTIONS_HTTP_PORT: '0' }),
    ).rejects.toThrow(/permission denied for schema connections/);
  });
});

describe('who may call on the bus', () => {
  it('when something on the broker asks connections for decrypted platform tokens without a signature, then it is refused', async () => {
    const [profile] = account.profiles;

    const answer = await rawCall('connections.credentials.get', {
      principal: null,
      input: { profileId: profile.id, accountId: account.accountId },
    });

    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_signature' } });
    expect(JSON.stringify(answer)).not.toMatch(/accessToken/);
  });

  it('when a caller forges a principal for another account with a key of its own, then posts refuses it', async () => {
    const forger = await busWith({ call: 'not-the-services-key-but-long-enough-0123' });
    const principal = {
      accountId: account.accountId,
      userId: account.userId,
      credential: { type: 'api_key' as const, id: account.keyId },
      scopes: ['post:read'],
      profileIds: 'all' as const,
    };

    await expect(forger.rpc.call(Rpc.postsList, {}, principal)).rejects.toMatchObject({ code: 'invalid_signature' });
  });

  it('when a service (holding only the bus key) calls an operator command, then auth refuses it and no key is issued', async () => {
    const service = await busWith({ call: DEV_BUS_PRINCIPAL_KEY });

    await expect(
      service.rpc.call(Rpc.authIssueKey, { accountId: account.accountId, name: 'stolen', scopes: ['post:write'] }),
    ).rejects.toMatchObject({ code: 'insufficient_scope' });
    await expect(
      service.rpc.call(Rpc.connectionsSeedProfile, {
        accountId: account.accountId,
        platform: 'threads',
        platformUserId: 'u1',
        handle: 'h',
        accessToken: 't',
      }),
    ).rejects.toMatchObject({ code: 'insufficient_scope' });
    const { keys } = await system.bus.rpc.call(Rpc.authListKeys, { accountId: account.accountId });
    expect(keys.map((k) => k.name)).toEqual(['development']);
  });
});

describe('each service reaches only its own queues', () => {
  const brokerUrl = (service: string) => developmentBrokerUrls(env.amqpUrl)[service];

  /** What the broker answers `service`'s user for one operation on a channel of its own: 'allowed', or the refusal. */
  async function onBrokerAs(service: string, op: (ch: Channel) => Promise<unknown>): Promise<string> {
    const model = await connect(brokerUrl(service));
    model.on('error', () => undefined);
    try {
      const ch = await model.createChannel();
      ch.on('error', () => undefined);
      await op(ch);
      await ch.close();
      return 'allowed';
    } catch (err) {
      return /ACCESS_REFUSED/.test((err as Error).message) ? 'ACCESS_REFUSED' : (err as Error).message;
    } finally {
      await model.close().catch(() => undefined);
    }
  }
  const consume = (queue: string) => (ch: Channel) => ch.consume(queue, () => undefined);
  const declare = (queue: string) => (ch: Channel) =>
    ch.assertQueue(queue, { durable: false, arguments: { 'x-expires': 60_000 } });
  const q = (local: string) => `${env.namespace}.${local}`;

  it("when posts' broker user reaches for connections' queues, then consuming, reading, declaring and deleting are refused", async () => {
    expect(await onBrokerAs('posts', consume(q('rpc.connections')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('posts', (ch) => ch.get(q('rpc.connections')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('posts', declare(q('connections.stolen')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('posts', (ch) => ch.deleteQueue(q('rpc.connections')))).toBe('ACCESS_REFUSED');
    // Its own queues, the one it is served from included, it may use.
    expect(await onBrokerAs('posts', declare(q('posts.probe')))).toBe('allowed');
    expect(await onBrokerAs('posts', consume(q('rpc.posts')))).toBe('allowed');
  });

  it("when connections' broker user reaches for posts' queues, then consuming, declaring and binding are refused", async () => {
    expect(await onBrokerAs('connections', consume(q('rpc.posts')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('connections', consume(q('posts.results')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('connections', declare(q('posts.stolen')))).toBe('ACCESS_REFUSED');
    expect(await onBrokerAs('connections', (ch) => ch.bindQueue(q('posts.results'), q('events'), '#'))).toBe(
      'ACCESS_REFUSED',
    );
    expect(await onBrokerAs('connections', consume(q('rpc.connections')))).toBe('allowed');
  });

  it("when posts is started with connections' broker user, then it does not start", async () => {
    await expect(startPosts({ ...env.env, AMQP_URL: brokerUrl('connections'), POSTS_HTTP_PORT: '0' })).rejects.toThrow(
      /ACCESS_REFUSED/,
    );
  });
});
