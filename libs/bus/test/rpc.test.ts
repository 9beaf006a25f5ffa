import { Type } from '@sinclair/typebox';
import { AppError, defineRpc, type Principal } from '@postbus/contracts';
import { currentRequestId } from '@postbus/kit';
import { RpcClient, RpcServer, type BusConnection } from '../src';
import { Operator, openTestBus, randomNamespace, sleep } from './support';

const GetPost = defineRpc(
  'posts.get',
  Type.Object({ postId: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ postId: Type.String(), caption: Type.String(), accountId: Type.String() }),
);
const Ping = defineRpc('posts.ping', Type.Object({}), Type.Object({ pong: Type.Boolean(), requestId: Type.String() }), {
  anonymous: true,
});
const Broken = defineRpc('posts.broken', Type.Object({}), Type.Object({ count: Type.Integer() }), { anonymous: true });
const Slow = defineRpc('slow.wait', Type.Object({ ms: Type.Integer() }), Type.Object({ waited: Type.Integer() }), {
  anonymous: true,
});
const Nobody = defineRpc('nobody.home', Type.Object({}), Type.Object({}), { anonymous: true });

const principal: Principal = {
  accountId: 'acc_1',
  userId: 'usr_1',
  credential: { type: 'api_key', id: 'key_1' },
  scopes: ['post:read'],
  profileIds: 'all',
};

const namespace = randomNamespace('rpc');
let serverBus: BusConnection;
let clientBus: BusConnection;
let posts: RpcServer;
let slow: RpcServer;
let client: RpcClient;
const seen: { input: unknown; principal: Principal | null }[] = [];
const slowFinished: number[] = [];

beforeAll(async () => {
  serverBus = await openTestBus(namespace);
  clientBus = await openTestBus(namespace);
  posts = new RpcServer(serverBus, 'posts')
    .handle(GetPost, async (input, ctx) => {
      seen.push({ input, principal: ctx.principal });
      if (input.postId === 'pst_missing')
        throw new AppError('post_not_found', 'Post pst_missing was not found.', { postId: input.postId });
      if (input.postId === 'pst_crash') throw new Error('database exploded: password=hunter2');
      return { postId: input.postId, caption: 'hello', accountId: ctx.principal.accountId };
    })
    .handle(Ping, async (_input, ctx) => ({ pong: true, requestId: ctx.requestId }))
    .handle(Broken, async () => ({ count: 'many' }) as never);
  await posts.start();
  slow = new RpcServer(serverBus, 'slow').handle(Slow, async ({ ms }) => {
    await sleep(ms);
    slowFinished.push(ms);
    return { waited: ms };
  });
  await slow.start();
  client = await RpcClient.create(clientBus, 3000);
});

afterAll(async () => {
  client?.close();
  await posts?.stop();
  await slow?.stop();
  await clientBus?.close();
  await serverBus?.close();
  const op = await Operator.open();
  await op.cleanUp([`${namespace}.rpc.posts`, `${namespace}.rpc.slow`], []);
});

describe('RPC round trip', () => {
  it('when a served RPC is called with valid input and a principal, then the caller gets the handler data', async () => {
    const data = await client.call(GetPost, { postId: 'pst_1' }, principal);

    expect(data).toEqual({ postId: 'pst_1', caption: 'hello', accountId: 'acc_1' });
    expect(seen.at(-1)).toEqual({ input: { postId: 'pst_1' }, principal });
  });

  it('when many calls are in flight at once, then each caller gets its own answer', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `pst_${i}`);

    const answers = await Promise.all(ids.map((postId) => client.call(GetPost, { postId }, principal)));

    expect(answers.map((a) => a.postId)).toEqual(ids);
  });

  it('when the input breaks the schema, then the caller gets validation_error and the handler never runs', async () => {
    const before = seen.length;

    const err = await client.call(GetPost, { postId: '', extra: 1 } as never, principal).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'validation_error', status: 400 });
    expect((err as AppError).message).toMatch(/postId/);
    expect((err as AppError).message).toMatch(/extra/);
    expect(seen.length).toBe(before);
  });

  it('when the handler throws AppError post_not_found, then the caller receives that code, message and details', async () => {
    const err = await client.call(GetPost, { postId: 'pst_missing' }, principal).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'post_not_found',
      status: 404,
      message: 'Post pst_missing was not found.',
      details: { postId: 'pst_missing' },
    });
  });

  it('when the handler throws a plain Error, then the caller gets internal_error without the internal message', async () => {
    const err = await client.call(GetPost, { postId: 'pst_crash' }, principal).catch((e: unknown) => e);

    expect(err).toMatchObject({ code: 'internal_error', status: 500 });
    expect((err as Error).message).not.toMatch(/hunter2/);
  });

  it('when a non-anonymous RPC is called without a principal, then it is refused before the handler runs', async () => {
    const before = seen.length;

    const err = await client.call(GetPost, { postId: 'pst_1' }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'missing_api_key', status: 401 });
    expect(seen.length).toBe(before);
  });

  it('when an anonymous RPC is called without a principal, then it is served and sees the caller request id', async () => {
    const { runWithContext } = await import('@postbus/kit');

    const data = await runWithContext({ requestId: 'req_from_edge' }, () => client.call(Ping, {}));

    expect(data).toEqual({ pong: true, requestId: 'req_from_edge' });
    expect(currentRequestId()).toBeUndefined();
  });

  it('when a handler answers outside its output contract, then the caller gets internal_error', async () => {
    await expect(client.call(Broken, {})).rejects.toMatchObject({ code: 'internal_error' });
  });
});

describe('RPC deadlines', () => {
  it('when the handler is slower than the caller timeout, then the call rejects with service_unavailable at the deadline', async () => {
    const started = Date.now();

    const err = await client.call(Slow, { ms: 800 }, null, { timeoutMs: 200 }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(700);
  });

  it('when the late reply finally arrives, then it is ignored and the next call gets its own answer', async () => {
    await expect(client.call(Slow, { ms: 300 }, null, { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    while (!slowFinished.includes(300)) await sleep(20);
    await sleep(50); // the late reply has reached the client by now

    await expect(client.call(Slow, { ms: 1 }, null, { timeoutMs: 2000 })).resolves.toEqual({ waited: 1 });
  });

  it('when nobody serves the service, then the call answers service_unavailable without waiting out the deadline', async () => {
    const started = Date.now();

    const err = await client.call(Nobody, {}, null, { timeoutMs: 2500 }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('when the served queue has no consumer left, then the call answers service_unavailable at the deadline', async () => {
    const alone = new RpcServer(serverBus, 'gone').handle(
      defineRpc('gone.ping', Type.Object({}), Type.Object({}), { anonymous: true }),
      async () => ({}),
    );
    await alone.start();
    await alone.stop();
    const Gone = defineRpc('gone.ping', Type.Object({}), Type.Object({}), { anonymous: true });

    await expect(client.call(Gone, {}, null, { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    const op = await Operator.open();
    await op.cleanUp([`${namespace}.rpc.gone`], []);
  });
});

describe('RPC server shutdown', () => {
  it('when the server is stopped while a request is in flight, then that caller still gets its answer', async () => {
    const Drain = defineRpc('drain.wait', Type.Object({}), Type.Object({ done: Type.Boolean() }), { anonymous: true });
    let started = false;
    const drain = new RpcServer(serverBus, 'drain').handle(Drain, async () => {
      started = true;
      await sleep(300);
      return { done: true };
    });
    await drain.start();

    const answer = client.call(Drain, {}, null, { timeoutMs: 2000 });
    while (!started) await sleep(10);
    await drain.stop();

    await expect(answer).resolves.toEqual({ done: true });
    await expect(client.call(Drain, {}, null, { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    const op = await Operator.open();
    await op.cleanUp([`${namespace}.rpc.drain`], []);
  });
});
