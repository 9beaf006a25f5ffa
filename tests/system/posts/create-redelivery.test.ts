import { connect, type Channel, type ChannelModel, type Options } from 'amqplib';
import { Client } from 'pg';
import { Rpc, type Principal } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * A replica of posts that dies after committing a create but before acking the request leaves
 * the broker to deliver the same request (same body, headers and correlation id) to another
 * replica. That second delivery must answer what the first stored, not create the posts again.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let principal: Principal;
let amqp: ChannelModel;
let channel: Channel;
let db: Client;

beforeAll(async () => {
  env = await createTestEnv('posts_create_redelivery');
  system = await startSystem(env, { SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  principal = await system.bus.rpc.call(Rpc.authVerifyKey, { token: account.apiKey });
  amqp = await connect(env.amqpUrl);
  channel = await amqp.createChannel();
  db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await amqp?.close().catch(() => undefined);
  await system?.stop();
  await env?.drop();
});

interface SentRequest {
  queue: string;
  content: Buffer;
  options: Options.Publish;
}

/** Makes `call` through the system's RPC client and answers it with the request exactly as it went on the wire. */
async function callCapturingRequest<T>(call: () => Promise<T>): Promise<{ answer: T; request: SentRequest }> {
  const client = system.bus.rpc as unknown as { channel: Channel };
  const original = client.channel.sendToQueue.bind(client.channel);
  let request: SentRequest | undefined;
  client.channel.sendToQueue = (queue: string, content: Buffer, options?: Options.Publish) => {
    request ??= { queue, content, options: options ?? {} };
    return original(queue, content, options);
  };
  try {
    const answer = await call();
    return { answer, request: request! };
  } finally {
    client.channel.sendToQueue = original;
  }
}

/** Delivers the request again, as the broker does after a replica died holding it, and answers the reply. */
async function deliverAgain(
  request: SentRequest,
): Promise<{ ok: boolean; data?: { postIds: string[]; replayed: boolean }; error?: { code: string } }> {
  const { queue: replyTo } = await channel.assertQueue('', { exclusive: true });
  let bound: NodeJS.Timeout | undefined;
  const reply = new Promise<string>((resolve, reject) => {
    bound = setTimeout(() => reject(new Error('no reply to the redelivered request')), 10_000);
    void channel.consume(replyTo, (msg) => msg && resolve(msg.content.toString()), { noAck: true });
  });
  channel.sendToQueue(request.queue, request.content, { ...request.options, replyTo, mandatory: false });
  return JSON.parse(await reply.finally(() => clearTimeout(bound)));
}

const postsOfAccount = async () =>
  sorted(
    (await db.query('SELECT id FROM posts.posts WHERE account_id = $1', [account.accountId])).rows.map(
      (r) => r.id as string,
    ),
  );
const sorted = (ids: string[]) => [...ids].sort();

describe('a create request delivered twice', () => {
  test('when posts.create is delivered again after it was served, then the second delivery answers the same posts and stores nothing', async () => {
    const before = await postsOfAccount();
    const body = {
      platforms: ['threads'],
      caption: 'delivered twice',
      scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
    };

    const { answer, request } = await callCapturingRequest(() =>
      system.bus.rpc.call(Rpc.postsCreate, { mode: 'posts', body }, principal),
    );
    const again = await deliverAgain(request);

    expect(again.ok).toBe(true);
    expect(again.data?.postIds).toEqual(answer.postIds);
    expect(again.data?.replayed).toBe(false);
    expect(await postsOfAccount()).toEqual(sorted([...before, ...answer.postIds]));
  });

  test('when posts.createDrafts is delivered again, then no second draft is stored', async () => {
    const before = await postsOfAccount();
    const { answer, request } = await callCapturingRequest(() =>
      system.bus.rpc.call(
        Rpc.postsCreateDrafts,
        { body: { platforms: ['threads'], caption: 'a draft delivered twice' } },
        principal,
      ),
    );
    const again = await deliverAgain(request);

    expect(again.data?.postIds).toEqual(answer.postIds);
    expect(await postsOfAccount()).toEqual(sorted([...before, ...answer.postIds]));
  });

  test('when the same body is sent in two separate calls without a key, then both create (only a redelivery is folded)', async () => {
    const before = await postsOfAccount();
    const body = {
      platforms: ['threads'],
      caption: 'sent twice on purpose',
      scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const first = await system.bus.rpc.call(Rpc.postsCreate, { mode: 'posts', body }, principal);
    const second = await system.bus.rpc.call(Rpc.postsCreate, { mode: 'posts', body }, principal);

    expect(second.postIds).not.toEqual(first.postIds);
    expect(await postsOfAccount()).toEqual(sorted([...before, ...first.postIds, ...second.postIds]));
  });
});
