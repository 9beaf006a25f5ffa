import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isPlatformError,
  replyOnThreads,
  replyToFacebookComment,
  replyToInstagramComment,
  sendFacebookPrivateReply,
  sendInstagramPrivateReply,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control, errorOf } from './sandbox-client';

/** A callback standing in for a subscriber: echoes the handshake (when told to) and keeps every POST as it arrived. */
interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

let sandbox: RunningSandbox;
let receiver: Server;
let callbackUrl: string;
let echoChallenge = true;
let received: Received[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  receiver = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(echoChallenge ? (url.searchParams.get('hub.challenge') ?? '') : 'no');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/meta`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  echoChallenge = true;
  received = [];
});

const API_PATHS = { instagram: '/instagram/v21.0', facebook: '/facebook/v21.0', threads: '/threads/v1.0' };

async function anAccount(platform: 'instagram' | 'facebook' | 'threads', handle: string) {
  const { body } = await control(sandbox, 'POST', '/users', { platform, handle });
  const path = API_PATHS[platform];
  return {
    userId: body.userId as string,
    handle,
    api: { baseUrl: `${sandbox.url}${path}`, accessToken: body.accessToken as string },
  };
}

const subscribe = () => control(sandbox, 'POST', '/comments/subscriptions', { callbackUrl, verifyToken: 'tok' });
const comment = (input: Record<string, unknown>) => control(sandbox, 'POST', '/comments', input);
const replies = async (query = '') =>
  (await control(sandbox, 'GET', `/comments/replies${query}`)).body as {
    kind: string;
    commentId: string;
    text: string;
    id: string;
  }[];
const signature = (body: string, secret = 'sandbox-secret') =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('comment webhooks from the sandbox', () => {
  test('when a callback echoes the challenge, then the subscription is made; when it does not, then handshake_failed', async () => {
    const ok = await subscribe();
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ callbackUrl, verified: true });

    echoChallenge = false;
    const refused = await subscribe();
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'handshake_failed', details: { status: 200, body: 'no' } });
    expect((await control(sandbox, 'GET', '/comments/subscriptions')).body).toHaveLength(1);
  });

  test('when an Instagram comment is made, then its webhook arrives signed with the App Secret over the raw body, inside changes[]', async () => {
    await subscribe();
    const shop = await anAccount('instagram', 'shop');
    const { status, body } = await comment({
      platform: 'instagram',
      accountId: shop.userId,
      text: 'price?',
      from: { id: '42', name: 'anna' },
    });

    expect(status).toBe(201);
    expect(body.deliveries).toEqual([
      { subscriptionId: expect.any(Number), callbackUrl, status: 200, body: '{"ok":true}' },
    ]);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery.headers['x-hub-signature-256']).toBe(signature(delivery.body));
    expect(delivery.headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(JSON.parse(delivery.body)).toEqual({
      object: 'instagram',
      entry: [
        {
          id: shop.userId,
          time: expect.any(Number),
          changes: [
            {
              field: 'comments',
              value: {
                id: body.comment.id,
                text: 'price?',
                from: { id: '42', username: 'anna' },
                media: { id: body.comment.postId, media_product_type: 'FEED' },
              },
            },
          ],
        },
      ],
    });
  });

  test('when asked for the flat shape, an invalid or a missing signature, then the delivery says so', async () => {
    await subscribe();
    const shop = await anAccount('instagram', 'shop');
    await comment({ platform: 'instagram', accountId: shop.userId, text: 'a', wrapper: 'flat', signature: 'invalid' });
    await comment({ platform: 'instagram', accountId: shop.userId, text: 'b', signature: 'missing' });

    expect(JSON.parse(received[0].body).entry[0]).toMatchObject({ field: 'comments', value: { text: 'a' } });
    expect(received[0].headers['x-hub-signature-256']).not.toBe(signature(received[0].body));
    expect(received[1].headers['x-hub-signature-256']).toBeUndefined();
  });

  test('when a Facebook Page post gets a comment, then a feed change with item comment arrives', async () => {
    await subscribe();
    const page = await anAccount('facebook', 'bakery');
    const { body } = await comment({
      platform: 'facebook',
      accountId: page.userId,
      text: 'open today?',
      from: { id: '7', name: 'Bo' },
    });

    const value = JSON.parse(received[0].body).entry[0].changes[0];
    expect(value).toEqual({
      field: 'feed',
      value: {
        item: 'comment',
        verb: 'add',
        comment_id: body.comment.id,
        post_id: body.comment.postId,
        parent_id: body.comment.postId,
        message: 'open today?',
        from: { id: '7', name: 'Bo' },
        created_time: expect.any(Number),
      },
    });
    expect(body.comment.postId.startsWith(`${page.userId}_`)).toBe(true);
  });

  test('when a Threads post gets a reply, then a replies webhook names the account as target and root post owner', async () => {
    await subscribe();
    const author = await anAccount('threads', 'writer');
    const { body } = await comment({
      platform: 'threads',
      accountId: author.userId,
      text: 'where to buy?',
      from: { name: 'reader' },
    });

    const payload = JSON.parse(received[0].body);
    expect(received[0].headers['x-hub-signature-256']).toBe(signature(received[0].body));
    expect(payload).toMatchObject({ topic: 'moderate', target_id: author.userId, values: { field: 'replies' } });
    expect(payload.values.value).toMatchObject({
      id: body.comment.id,
      username: 'reader',
      text: 'where to buy?',
      replied_to: { id: body.comment.postId },
      root_post: { id: body.comment.postId, owner_id: author.userId, username: 'writer' },
    });
  });

  test('when a comment is delivered again, then the same bytes arrive again', async () => {
    await subscribe();
    const shop = await anAccount('instagram', 'shop');
    const { body } = await comment({ platform: 'instagram', accountId: shop.userId, text: 'again' });
    const again = await control(sandbox, 'POST', `/comments/${body.comment.id}/deliver`, {});

    expect(again.status).toBe(200);
    expect(received.map((r) => r.body)).toEqual([received[0].body, received[0].body]);
  });
});

describe('replies through the platform clients', () => {
  test("when an Instagram comment is answered, then the reply is recorded and announced as the account's own comment", async () => {
    await subscribe();
    const shop = await anAccount('instagram', 'shop');
    const { body } = await comment({ platform: 'instagram', accountId: shop.userId, text: 'price?' });

    const reply = await replyToInstagramComment(shop.api, body.comment.id, 'Hi anna!');

    expect(await replies(`?commentId=${body.comment.id}`)).toEqual([
      expect.objectContaining({ kind: 'reply', id: reply.id, text: 'Hi anna!', platform: 'instagram' }),
    ]);
    const announced = await waitForDeliveries(2);
    expect(JSON.parse(announced[1].body).entry[0].changes[0].value).toMatchObject({
      id: reply.id,
      parent_id: body.comment.id,
      from: { id: shop.userId, username: 'shop' },
    });
  });

  test("when an Instagram reply answers a reply, or another account's comment, then Instagram refuses it", async () => {
    const shop = await anAccount('instagram', 'shop');
    const other = await anAccount('instagram', 'other');
    const { body } = await comment({ platform: 'instagram', accountId: shop.userId, text: 'hi' });
    const { body: nested } = await comment({
      platform: 'instagram',
      accountId: shop.userId,
      text: 'hi again',
      parentId: body.comment.id,
    });

    const toReply = await errorOf(() => replyToInstagramComment(shop.api, nested.comment.id, 'x'));
    expect(isPlatformError(toReply) && toReply.transient).toBe(false);
    expect(toReply.message).toMatch(/top-level comments/);
    const foreign = await errorOf(() => replyToInstagramComment(other.api, body.comment.id, 'x'));
    expect(foreign).toMatchObject({ platform: 'instagram', transient: false, code: 100 });
    expect(await replies()).toEqual([]);
  });

  test('when a private reply is sent twice for one comment, then the second is refused', async () => {
    const shop = await anAccount('instagram', 'shop');
    const { body } = await comment({
      platform: 'instagram',
      accountId: shop.userId,
      text: 'link',
      from: { id: '42', name: 'anna' },
    });

    const sent = await sendInstagramPrivateReply(shop.api, shop.userId, body.comment.id, 'here it is');
    const second = await errorOf(() => sendInstagramPrivateReply(shop.api, shop.userId, body.comment.id, 'again'));

    expect(sent.id).toMatch(/^m_/);
    expect(second).toMatchObject({ platform: 'instagram', transient: false, code: 10 });
    expect(await replies()).toEqual([
      expect.objectContaining({ kind: 'private_reply', commentId: body.comment.id, text: 'here it is' }),
    ]);
  });

  test('when a Facebook comment is answered publicly and privately, then both are recorded', async () => {
    const page = await anAccount('facebook', 'bakery');
    const { body } = await comment({ platform: 'facebook', accountId: page.userId, text: 'open today?' });

    const reply = await replyToFacebookComment(page.api, body.comment.id, 'Until 6pm');
    await sendFacebookPrivateReply(page.api, page.userId, body.comment.id, 'Details in your inbox');

    expect(await replies('?platform=facebook')).toEqual([
      expect.objectContaining({ kind: 'reply', id: reply.id, commentId: body.comment.id }),
      expect.objectContaining({ kind: 'private_reply', commentId: body.comment.id }),
    ]);
  });

  test('when a Threads reply is answered through a reply container, then it is recorded once published and announced', async () => {
    await subscribe();
    const author = await anAccount('threads', 'writer');
    const { body } = await comment({
      platform: 'threads',
      accountId: author.userId,
      text: 'where to buy?',
      from: { name: 'reader' },
    });

    const reply = await replyOnThreads(
      { ...author.api, userId: author.userId, pollIntervalMs: 10 },
      body.comment.id,
      'In our shop',
    );

    expect(await replies(`?commentId=${body.comment.id}`)).toEqual([
      expect.objectContaining({ platform: 'threads', kind: 'reply', id: reply.id, text: 'In our shop' }),
    ]);
    const announced = await waitForDeliveries(2);
    expect(JSON.parse(announced[1].body).values.value).toMatchObject({
      id: reply.id,
      username: 'writer',
      replied_to: { id: body.comment.id },
    });
    const other = await anAccount('threads', 'other');
    const foreign = await errorOf(() =>
      replyOnThreads({ ...other.api, userId: other.userId, pollIntervalMs: 10 }, body.comment.id, 'x'),
    );
    expect(foreign).toMatchObject({ platform: 'threads', transient: false });
  });

  test('when the platform is throttled, then the reply fails as transient and is not recorded', async () => {
    const shop = await anAccount('instagram', 'shop');
    const { body } = await comment({ platform: 'instagram', accountId: shop.userId, text: 'price?' });
    await control(sandbox, 'POST', '/faults', { platform: 'instagram', mode: 'throttle', operation: 'publish' });

    const err = await errorOf(() => replyToInstagramComment(shop.api, body.comment.id, 'Hi'));

    expect(err).toMatchObject({ platform: 'instagram', transient: true, outcomeUnknown: false, status: 429 });
    expect(await replies()).toEqual([]);
  });
});

async function waitForDeliveries(n: number): Promise<Received[]> {
  for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  return received;
}
