import { createHmac } from 'node:crypto';
import { Client } from 'pg';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { apiClient, platformUserIdOf, sandboxComments, settledActivity } from './harness';

const VERIFY_TOKEN = 'postbus-development-verify-token';
const APP_SECRET = 'sandbox-secret';

let env: TestEnv;
let system: RunningSystem;
let db: Client;
let api: ReturnType<typeof apiClient>;
let sandbox: ReturnType<typeof sandboxComments>;

beforeAll(async () => {
  env = await createTestEnv('automation_webhooks');
  system = await startSystem(env, { AUTOMATION_RETRY_DELAYS_MS: '100,200' });
  api = apiClient(system);
  sandbox = sandboxComments(system);
  db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
  const subscribed = await sandbox.subscribe(VERIFY_TOKEN);
  if (subscribed.status !== 201) throw new Error(`the sandbox could not subscribe: ${JSON.stringify(subscribed.body)}`);
});
afterAll(async () => {
  await db?.end();
  await system?.stop();
  await env?.drop();
});

/** An account with an Instagram and a Facebook profile and the template given; answers the sandbox ids of both. */
async function anAccountWith(rules: unknown[], opts: { enabled?: boolean } = {}) {
  const account = await system.seedAccount({ platforms: ['instagram', 'facebook'] });
  const res = await api('/api/v1/automation/template', {
    method: 'PUT',
    key: account.apiKey,
    body: { version: 1, enabled: opts.enabled, rules },
  });
  if (res.status !== 200) throw new Error(`template refused: ${JSON.stringify(res.body)}`);
  const [ig, fb] = account.profiles;
  return {
    account,
    ig: { ...ig, userId: await platformUserIdOf(system, account.accountId, ig.id) },
    fb: { ...fb, userId: await platformUserIdOf(system, account.accountId, fb.id) },
  };
}

const storedComments = async (commentId: string) =>
  Number((await db.query('SELECT count(*) FROM automation.comments WHERE comment_id = $1', [commentId])).rows[0].count);
const activityOf = async (account: SeededAccount, commentId: string) =>
  (await api(`/api/v1/automation/activity?commentId=${commentId}`, { key: account.apiKey })).body.data;

describe('the subscription handshake', () => {
  test('when Meta verifies the callback with the verify token, then hub.challenge is echoed as plain text', async () => {
    const res = await api(
      `/webhooks/meta?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY_TOKEN}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.body).toBe(1158201444);
  });

  test('when the verify token or the mode is wrong, then 403 invalid_signature; without a challenge, 400 validation_error', async () => {
    const wrongToken = await api('/webhooks/meta?hub.mode=subscribe&hub.challenge=1&hub.verify_token=guess');
    expect(wrongToken.status).toBe(403);
    expect(wrongToken.body.code).toBe('invalid_signature');
    const wrongMode = await api(`/webhooks/meta?hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${VERIFY_TOKEN}`);
    expect(wrongMode.status).toBe(403);
    const noChallenge = await api(`/webhooks/meta?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`);
    expect(noChallenge.status).toBe(400);
    expect(noChallenge.body.code).toBe('validation_error');
  });

  test('when the sandbox subscribes with another verify token, then its handshake fails', async () => {
    const res = await sandbox.subscribe('not-the-token');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'handshake_failed', details: { status: 403 } });
  });
});

describe('signed deliveries', () => {
  test('when a comment arrives with a bad or missing signature, then it is refused with 403 and nothing is stored or answered', async () => {
    const { account, ig } = await anAccountWith([
      { id: 'price', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'Hi' } },
    ]);
    const forged = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: 'price?',
      signature: 'invalid',
    });
    const unsigned = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: 'price?',
      signature: 'missing',
    });

    for (const { deliveries } of [forged, unsigned]) {
      expect(deliveries[0].status).toBe(403);
      expect(JSON.parse(deliveries[0].body).code).toBe('invalid_signature');
    }
    expect(await storedComments(forged.comment.id)).toBe(0);
    expect(await storedComments(unsigned.comment.id)).toBe(0);
    // A correctly signed comment after them is answered: the refused ones left nothing behind.
    const signed = await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'price?' });
    expect((await settledActivity(api, account.apiKey, signed.comment.id)).outcome).toBe('replied');
    expect(await activityOf(account, forged.comment.id)).toEqual([]);
    expect(await sandbox.replies(forged.comment.id)).toEqual([]);
  });

  test('when a correctly signed body is not JSON, then 400 invalid_json', async () => {
    const body = '{"object":"instagram",';
    const res = await fetch(`${system.baseUrl}/webhooks/meta`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_json');
  });

  test('when a path under /webhooks/meta does not exist, then 404 not_found', async () => {
    const res = await api('/webhooks/meta/other', { method: 'POST', body: {} });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('answering comments', () => {
  test("when an Instagram comment matches a rule, then it is answered under the comment with the commenter's name, and the activity says why", async () => {
    const { account, ig } = await anAccountWith([
      { id: 'hours', trigger: { match: 'any', keywords: ['open'] }, action: { type: 'reply', text: 'We open at 9' } },
      {
        id: 'price',
        trigger: { match: 'any', keywords: ['price', 'cost'] },
        action: { type: 'reply', text: 'Hi {name}, the price is in your DMs' },
      },
    ]);
    const { comment } = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: "What's the PRICE?",
      from: { id: '501', name: 'anna_k' },
    });

    const entry = await settledActivity(api, account.apiKey, comment.id);
    const replies = await sandbox.replies(comment.id);
    expect(replies).toEqual([expect.objectContaining({ kind: 'reply', text: 'Hi anna_k, the price is in your DMs' })]);
    expect(entry).toMatchObject({
      profileId: ig.id,
      platform: 'instagram',
      commentId: comment.id,
      postId: comment.postId,
      commenter: { id: '501', name: 'anna_k' },
      commentText: "What's the PRICE?",
      outcome: 'replied',
      reason: 'matched',
      ruleId: 'price',
      matchedKeywords: ['price'],
      action: 'reply',
      replyText: 'Hi anna_k, the price is in your DMs',
      replyId: replies[0].id,
    });
    expect(entry.detail).toMatch(/Rule "price" matched "price"/);
    expect(Date.parse(entry.repliedAt)).not.toBeNaN();
  });

  test('when comments do not match as whole words, all keywords or exactly, then they are skipped with no_matching_rule', async () => {
    const { account, ig } = await anAccountWith([
      { id: 'price', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'A' } },
      { id: 'ship', trigger: { match: 'all', keywords: ['free', 'shipping'] }, action: { type: 'reply', text: 'B' } },
      { id: 'link', trigger: { match: 'exact', keywords: ['link'] }, action: { type: 'private_reply', text: 'C' } },
    ]);
    const answered = [
      await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'Is SHIPPING free?' }),
      await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'Link!' }),
    ];
    const skipped = [
      await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'priceless' }),
      await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'free?' }),
      await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'send the link' }),
    ];

    expect((await settledActivity(api, account.apiKey, answered[0].comment.id)).ruleId).toBe('ship');
    expect(await settledActivity(api, account.apiKey, answered[1].comment.id)).toMatchObject({
      outcome: 'replied',
      ruleId: 'link',
      action: 'private_reply',
    });
    expect(await sandbox.replies(answered[1].comment.id)).toEqual([
      expect.objectContaining({ kind: 'private_reply', text: 'C' }),
    ]);
    for (const { comment } of skipped) {
      expect(await settledActivity(api, account.apiKey, comment.id)).toMatchObject({
        outcome: 'skipped',
        reason: 'no_matching_rule',
        ruleId: null,
        replyId: null,
      });
      expect(await sandbox.replies(comment.id)).toEqual([]);
    }
  });

  test('when a Facebook Page comment matches, then the Page answers it; a comment in the flat Instagram shape is answered too', async () => {
    const { account, ig, fb } = await anAccountWith([
      {
        id: 'hours',
        trigger: { match: 'any', keywords: ['hours', 'open'] },
        action: { type: 'reply', text: 'Hi {name}: 9 to 6' },
      },
    ]);
    const onPage = await sandbox.comment({
      platform: 'facebook',
      accountId: fb.userId,
      text: 'What are your hours?',
      from: { id: '77', name: 'Bo Lind' },
    });
    const flat = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: 'are you open?',
      wrapper: 'flat',
    });

    expect(await settledActivity(api, account.apiKey, onPage.comment.id)).toMatchObject({
      outcome: 'replied',
      profileId: fb.id,
      platform: 'facebook',
    });
    expect(await sandbox.replies(onPage.comment.id)).toEqual([
      expect.objectContaining({ kind: 'reply', text: 'Hi Bo Lind: 9 to 6' }),
    ]);
    expect((await settledActivity(api, account.apiKey, flat.comment.id)).outcome).toBe('replied');
  });

  test('when the account comments on its own post, or its own reply comes back as a webhook, then it is never answered', async () => {
    const { account, ig, fb } = await anAccountWith([
      { id: 'all', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'price is 5' } },
    ]);
    const own = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: 'price drop today!',
      fromAccount: true,
    });
    const ownOnPage = await sandbox.comment({
      platform: 'facebook',
      accountId: fb.userId,
      text: 'new price list',
      fromAccount: true,
    });
    const fan = await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'price?' });

    expect(await settledActivity(api, account.apiKey, own.comment.id)).toMatchObject({
      outcome: 'skipped',
      reason: 'own_comment',
    });
    expect(await settledActivity(api, account.apiKey, ownOnPage.comment.id)).toMatchObject({
      outcome: 'skipped',
      reason: 'own_comment',
    });
    expect((await settledActivity(api, account.apiKey, fan.comment.id)).outcome).toBe('replied');
    // The reply ("price is 5") is itself announced as a comment by the account, and matches the rule.
    const [reply] = await sandbox.replies(fan.comment.id);
    expect(await settledActivity(api, account.apiKey, reply.id, 'the echoed reply')).toMatchObject({
      outcome: 'skipped',
      reason: 'own_comment',
    });
    expect(await sandbox.replies(reply.id)).toEqual([]);
    expect(await sandbox.replies(own.comment.id)).toEqual([]);
  });

  test('when a reply on a Threads post matches, then it is answered with a Threads reply, and the echoed reply is not', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const [th] = account.profiles;
    const userId = await platformUserIdOf(system, account.accountId, th.id);
    const imported = await api('/api/v1/automation/template', {
      method: 'PUT',
      key: account.apiKey,
      body: {
        version: 1,
        rules: [
          {
            id: 'buy',
            platforms: ['threads'],
            trigger: { match: 'any', keywords: ['buy'] },
            action: { type: 'reply', text: '@{name} link in bio' },
          },
        ],
      },
    });
    expect(imported.status).toBe(200);

    const { comment } = await sandbox.comment({
      platform: 'threads',
      accountId: userId,
      text: 'Where can I BUY this?',
      from: { name: 'reader_1' },
    });

    expect(await settledActivity(api, account.apiKey, comment.id)).toMatchObject({
      outcome: 'replied',
      platform: 'threads',
      profileId: th.id,
      commenter: { id: null, name: 'reader_1' },
      replyText: '@reader_1 link in bio',
    });
    const [reply] = await sandbox.replies(comment.id);
    expect(reply).toMatchObject({ platform: 'threads', kind: 'reply', text: '@reader_1 link in bio' });
    expect(await settledActivity(api, account.apiKey, reply.id, 'the echoed Threads reply')).toMatchObject({
      outcome: 'skipped',
      reason: 'own_comment',
    });
  });

  test('when the template is disabled, then comments are skipped as template_disabled', async () => {
    const { account, ig } = await anAccountWith(
      [{ id: 'p', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'x' } }],
      { enabled: false },
    );
    const { comment } = await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'price?' });
    expect(await settledActivity(api, account.apiKey, comment.id)).toMatchObject({
      outcome: 'skipped',
      reason: 'template_disabled',
    });
    expect(await sandbox.replies(comment.id)).toEqual([]);
  });
});

describe('caps', () => {
  test('when a rule reaches its per-post cap and then its per-hour cap, then further comments are skipped with the cap named', async () => {
    const { account, ig } = await anAccountWith([
      {
        id: 'capped',
        trigger: { match: 'any', keywords: ['price'] },
        action: { type: 'reply', text: 'x' },
        caps: { perPost: 1, perHour: 2 },
      },
    ]);
    const outcomeOf = async (postId: string) => {
      const { comment } = await sandbox.comment({
        platform: 'instagram',
        accountId: ig.userId,
        postId,
        text: 'price?',
      });
      return settledActivity(api, account.apiKey, comment.id);
    };

    expect((await outcomeOf('post-1')).outcome).toBe('replied');
    expect(await outcomeOf('post-1')).toMatchObject({ outcome: 'skipped', reason: 'per_post_cap', ruleId: 'capped' });
    expect((await outcomeOf('post-2')).outcome).toBe('replied');
    const third = await outcomeOf('post-3');
    expect(third).toMatchObject({ outcome: 'skipped', reason: 'per_hour_cap' });
    expect(third.detail).toMatch(/caps\.perHour 2/);
    expect(await sandbox.replies(third.commentId)).toEqual([]);
  });

  test('when many matching comments on one post arrive at once, then exactly the per-post cap is answered', async () => {
    const { account, ig } = await anAccountWith([
      {
        id: 'burst',
        trigger: { match: 'any', keywords: ['win'] },
        action: { type: 'reply', text: 'x' },
        caps: { perPost: 3 },
      },
    ]);
    const comments = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sandbox.comment({ platform: 'instagram', accountId: ig.userId, postId: 'burst-post', text: `win ${i}` }),
      ),
    );
    const entries = await Promise.all(comments.map(({ comment }) => settledActivity(api, account.apiKey, comment.id)));
    expect(entries.filter((e) => e.outcome === 'replied')).toHaveLength(3);
    expect(entries.filter((e) => e.reason === 'per_post_cap')).toHaveLength(5);
  });
});

describe('redelivery and failures', () => {
  test('when the same webhook is delivered again, before or after it was answered, then the comment is answered once', async () => {
    const { account, ig } = await anAccountWith([
      { id: 'p', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'once' } },
    ]);
    const { comment, deliveries } = await sandbox.comment({
      platform: 'instagram',
      accountId: ig.userId,
      text: 'price?',
    });
    const racing = await sandbox.redeliver(comment.id);
    expect(JSON.parse(deliveries[0].body)).toEqual({ comments: 1, new: 1 });
    expect(JSON.parse(racing.deliveries[0].body)).toEqual({ comments: 1, new: 0 });

    expect((await settledActivity(api, account.apiKey, comment.id)).outcome).toBe('replied');
    const late = await sandbox.redeliver(comment.id);
    expect(late.deliveries[0].status).toBe(200);
    expect(JSON.parse(late.deliveries[0].body)).toEqual({ comments: 1, new: 0 });
    expect(await sandbox.replies(comment.id)).toHaveLength(1);
    expect(await activityOf(account, comment.id)).toHaveLength(1);
    expect(await storedComments(comment.id)).toBe(1);
  });

  test('when the platform throttles the reply once, then it is retried and answered once', async () => {
    const { account, ig } = await anAccountWith([
      { id: 'p', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'after a retry' } },
    ]);
    await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'instagram', mode: 'throttle', operation: 'publish' }),
    });
    const { comment } = await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'price?' });

    expect((await settledActivity(api, account.apiKey, comment.id)).outcome).toBe('replied');
    expect(await sandbox.replies(comment.id)).toHaveLength(1);
    const calls = (await (await fetch(`${system.sandboxUrl}/__sandbox/requests?platform=instagram`)).json()) as {
      method: string;
      path: string;
    }[];
    expect(calls.filter((c) => c.method === 'POST' && c.path.endsWith(`/${comment.id}/replies`))).toHaveLength(2);
  });

  test("when the platform refuses the reply for good, then the activity says failed with the platform's reason", async () => {
    const { account, fb } = await anAccountWith([
      { id: 'p', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'x' } },
    ]);
    await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'facebook',
        mode: 'error',
        operation: 'publish',
        code: 100,
        message: '(#100) The comment was deleted',
      }),
    });
    const { comment } = await sandbox.comment({ platform: 'facebook', accountId: fb.userId, text: 'price?' });

    const entry = await settledActivity(api, account.apiKey, comment.id);
    expect(entry).toMatchObject({ outcome: 'failed', reason: 'platform_error', replyId: null });
    expect(entry.detail).toBe('Facebook refused the reply: The comment was deleted.');
    expect(await sandbox.replies(comment.id)).toEqual([]);
  });

  test("when the platform refuses the profile's token and it cannot be refreshed, then the reply fails as profile_unavailable", async () => {
    const { account, ig } = await anAccountWith([
      { id: 'p', trigger: { match: 'any', keywords: ['price'] }, action: { type: 'reply', text: 'x' } },
    ]);
    await fetch(`${system.sandboxUrl}/__sandbox/users/${ig.userId}/revoke`, { method: 'POST' });
    const { comment } = await sandbox.comment({ platform: 'instagram', accountId: ig.userId, text: 'price?' });

    const entry = await settledActivity(api, account.apiKey, comment.id);
    expect(entry).toMatchObject({ outcome: 'failed', reason: 'profile_unavailable' });
    expect(entry.detail).toMatch(/reconnect/);
    expect(await sandbox.replies(comment.id)).toEqual([]);
  });

  test('when a comment is on an account no profile connects, then it is heard and nothing else happens', async () => {
    const stranger = await fetch(`${system.sandboxUrl}/__sandbox/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'instagram', handle: 'stranger' }),
    });
    const { userId } = (await stranger.json()) as { userId: string };
    const orphan = await sandbox.comment({ platform: 'instagram', accountId: userId, text: 'price?' });

    expect(orphan.deliveries[0].status).toBe(200);
    expect(await storedComments(orphan.comment.id)).toBe(1);
    expect(await sandbox.replies(orphan.comment.id)).toEqual([]);
  });

  test('when two accounts connect the same Instagram account, then the first without a template records nothing and the next answers once', async () => {
    const bare = await system.seedAccount({ platforms: ['instagram'] });
    const userId = await platformUserIdOf(system, bare.accountId, bare.profiles[0].id);
    const creds = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId: bare.profiles[0].id,
      accountId: bare.accountId,
    });
    const { account } = await anAccountWith([
      {
        id: 'p',
        trigger: { match: 'any', keywords: ['price'] },
        action: { type: 'reply', text: 'from the second account' },
      },
    ]);
    await system.bus.rpc.call(Rpc.connectionsSeedProfile, {
      accountId: account.accountId,
      platform: 'instagram',
      platformUserId: userId,
      handle: creds.handle,
      accessToken: creds.accessToken,
    });

    const { comment } = await sandbox.comment({ platform: 'instagram', accountId: userId, text: 'price?' });

    // Accounts are asked in the order they connected the Instagram account: the bare one first.
    expect((await settledActivity(api, account.apiKey, comment.id)).outcome).toBe('replied');
    expect(await activityOf(bare, comment.id)).toEqual([]);
    expect(await sandbox.replies(comment.id)).toEqual([expect.objectContaining({ text: 'from the second account' })]);
  });
});
