import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { AppError, defineRpc, type Principal } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { CALL_SIGNATURE_HEADER, RpcClient, RpcServer, signCall, type BusConnection, type BusKeys } from '../src';
import { AMQP_URL, Operator, openTestBus, randomNamespace } from './support';

const SERVICE_KEY = 'service-key-for-this-test-only-0123456789';
const OPERATOR_KEY = 'operator-key-for-this-test-only-0123456789';

const GetCredentials = defineRpc(
  'vault.credentials.get',
  Type.Object({ profileId: Type.String() }),
  Type.Object({ token: Type.String() }),
  { anonymous: true },
);
const ListPosts = defineRpc('vault.posts.list', Type.Object({}), Type.Object({ accountId: Type.String() }));
const IssueKey = defineRpc(
  'vault.keys.issue',
  Type.Object({ accountId: Type.String() }),
  Type.Object({ key: Type.String() }),
  { anonymous: true, operator: true },
);

const alice: Principal = {
  accountId: 'acc_alice',
  userId: 'usr_alice',
  credential: { type: 'api_key', id: 'key_alice' },
  scopes: ['post:read'],
  profileIds: 'all',
};
const mallory: Principal = { ...alice, accountId: 'acc_mallory', userId: 'usr_mallory' };

const namespace = randomNamespace('sig');
const warnings: { message: string; type?: string; reason?: string }[] = [];
/** The server's log, kept to see each refusal reported. */
const serverLogger = {
  warn: (message: string, meta: object) => warnings.push({ message, ...meta }),
  error: () => undefined,
  info: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

let serverBus: BusConnection;
let server: RpcServer;
const handled: string[] = [];
const buses: BusConnection[] = [];
let raw: { model: ChannelModel; ch: Channel; replies: Map<string, (body: unknown) => void> };

async function clientWith(keys: BusKeys): Promise<RpcClient> {
  const bus = await openTestBus(namespace, { keys });
  buses.push(bus);
  return RpcClient.create(bus, 5000);
}

/** Publishes a request by hand, as anything that merely reached the broker could. */
async function rawCall(
  type: string,
  body: unknown,
  headers: Record<string, unknown>,
): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
  const correlationId = randomUUID();
  const reply = new Promise<unknown>((resolve) => raw.replies.set(correlationId, resolve));
  raw.ch.sendToQueue(`${namespace}.rpc.vault`, Buffer.from(JSON.stringify(body)), {
    correlationId,
    replyTo: 'amq.rabbitmq.reply-to',
    type,
    headers: { 'x-deadline': Date.now() + 5000, ...headers },
  });
  return reply as never;
}

beforeAll(async () => {
  serverBus = await openTestBus(namespace, {
    keys: { call: SERVICE_KEY, operatorCheck: OPERATOR_KEY },
    logger: serverLogger,
  });
  server = new RpcServer(serverBus, 'vault')
    .handle(GetCredentials, async () => {
      handled.push('credentials');
      return { token: 'decrypted-platform-token' };
    })
    .handle(ListPosts, async (_input, ctx) => {
      handled.push('list');
      return { accountId: ctx.principal.accountId };
    })
    .handle(IssueKey, async () => {
      handled.push('issue');
      return { key: 'pb_live_new' };
    });
  await server.start();
  const model = await connect(AMQP_URL);
  const ch = await model.createChannel();
  raw = { model, ch, replies: new Map() };
  await ch.consume(
    'amq.rabbitmq.reply-to',
    (msg) => msg && raw.replies.get(msg.properties.correlationId)?.(JSON.parse(msg.content.toString())),
    { noAck: true },
  );
});

afterAll(async () => {
  await server?.stop();
  for (const bus of buses) await bus.close();
  await serverBus?.close();
  await raw?.model.close().catch(() => undefined);
  const op = await Operator.open();
  await op.cleanUp([`${namespace}.rpc.vault`], []);
});

beforeEach(() => {
  handled.length = 0;
  warnings.length = 0;
});

describe('who may speak on the bus', () => {
  it('when a service signs with the bus key, then its calls (principal and all) are served', async () => {
    const service = await clientWith({ call: SERVICE_KEY });

    expect(await service.call(ListPosts, {}, alice)).toEqual({ accountId: 'acc_alice' });
    expect(await service.call(GetCredentials, { profileId: 'prf_1' })).toEqual({ token: 'decrypted-platform-token' });
    expect(handled).toEqual(['list', 'credentials']);
  });

  it('when a request reaches the broker unsigned, then it is refused with invalid_signature, logged, and no handler runs', async () => {
    const answer = await rawCall('vault.credentials.get', { principal: null, input: { profileId: 'prf_1' } }, {});

    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_signature' } });
    expect(answer.error?.message).toMatch(/not signed/);
    expect(handled).toEqual([]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ message: 'rpc refused: caller not verified', type: 'vault.credentials.get' }),
    );
  });

  it('when a signed request has its principal swapped on the way, then it is refused and the forged principal is never seen', async () => {
    const deadline = Date.now() + 5000;
    const signedBody = Buffer.from(JSON.stringify({ principal: alice, input: {} }));
    const signature = signCall(SERVICE_KEY, { namespace, type: 'vault.posts.list', deadline, body: signedBody });

    const answer = await rawCall(
      'vault.posts.list',
      { principal: mallory, input: {} },
      { 'x-deadline': deadline, [CALL_SIGNATURE_HEADER]: signature },
    );

    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_signature' } });
    expect(answer.error?.message).toMatch(/does not match/);
    expect(handled).toEqual([]);
  });

  it('when a client signs with a key of its own making, then every call is refused', async () => {
    const forger = await clientWith({
      call: 'a-key-the-services-never-heard-of-0123456789',
      operator: 'another-made-up-key-0123456789012345',
    });

    await expect(forger.call(ListPosts, {}, mallory)).rejects.toMatchObject({ code: 'invalid_signature' });
    await expect(forger.call(IssueKey, { accountId: 'acc_mallory' })).rejects.toMatchObject({
      code: 'invalid_signature',
    });
    expect(handled).toEqual([]);
  });

  it('when a signature is valid but its deadline lies implausibly far ahead, then the request is refused (a capture cannot be replayed for long)', async () => {
    const deadline = Date.now() + 24 * 3600_000;
    const body = Buffer.from(JSON.stringify({ principal: alice, input: {} }));

    const answer = await rawCall(
      'vault.posts.list',
      { principal: alice, input: {} },
      {
        'x-deadline': deadline,
        [CALL_SIGNATURE_HEADER]: signCall(SERVICE_KEY, { namespace, type: 'vault.posts.list', deadline, body }),
      },
    );

    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_signature' } });
    expect(handled).toEqual([]);
  });

  it('when a service (bus key only) calls an operator command, then it is refused with insufficient_scope and nothing is issued', async () => {
    const service = await clientWith({ call: SERVICE_KEY });

    const err = await service.call(IssueKey, { accountId: 'acc_alice' }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'insufficient_scope',
      message: expect.stringMatching(/operator command.*OPERATOR_KEY/),
    });
    expect(handled).toEqual([]);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        message: 'rpc refused: operator command without the operator key',
        type: 'vault.keys.issue',
      }),
    );
  });

  it('when the operator signs with the operator key, then operator commands run', async () => {
    const operator = await clientWith({ operator: OPERATOR_KEY });

    expect(await operator.call(IssueKey, { accountId: 'acc_alice' })).toEqual({ key: 'pb_live_new' });
    expect(handled).toEqual(['issue']);
  });

  it('when a server holds no operator key, then even a correctly signed operator command is refused', async () => {
    const keyless = await openTestBus(namespace, { keys: { call: SERVICE_KEY }, logger: serverLogger });
    buses.push(keyless);
    const other = new RpcServer(keyless, 'vaultless').handle(
      defineRpc('vaultless.keys.issue', Type.Object({}), Type.Object({}), { anonymous: true, operator: true }),
      async () => ({}),
    );
    await other.start();
    const operator = await clientWith({ call: SERVICE_KEY, operator: OPERATOR_KEY });
    try {
      await expect(
        operator.call(
          defineRpc('vaultless.keys.issue', Type.Object({}), Type.Object({}), { anonymous: true, operator: true }),
          {},
        ),
      ).rejects.toMatchObject({ code: 'insufficient_scope' });
      expect(warnings).toContainEqual(
        expect.objectContaining({ message: 'OPERATOR_KEY is not set: operator commands are refused' }),
      );
    } finally {
      await other.stop();
    }
  });
});
