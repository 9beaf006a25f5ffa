import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { api } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';
import { Receivers } from './receiver';
import { createWebhook } from './webhooks-api';

let env: TestEnv;
let system: RunningSystem;
const receivers = new Receivers();

beforeAll(async () => {
  env = await createTestEnv('webhooks_follow_ups');
  system = await startSystem(env, { WEBHOOK_POLL_MS: '50' });
});
afterAll(async () => {
  await receivers.close();
  await system?.stop();
  await env?.drop();
});

const receiver = () => receivers.listen();

const settledPost = (key: string, postId: string, done: (post: any) => boolean) =>
  waitFor(
    async () => {
      const post = (await api(system, `/api/v1/posts/${postId}`, { key })).body;
      return done(post) ? post : undefined;
    },
    { timeoutMs: 20_000, what: `post ${postId} to settle` },
  );

describe('first comments and Threads chains, end to end', () => {
  test('when a Threads post with a first comment and a thread is published, then the post shows each outcome and post.first_comment and post.thread are delivered with it', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const hooks = await receiver();
    await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.first_comment', 'post.thread'] });

    const created = await api(system, '/api/v1/publish', {
      method: 'POST',
      key: account.apiKey,
      body: {
        platforms: ['threads'],
        caption: 'Part one',
        firstComment: { threads: 'First!', default: 'unused' },
        thread: ['Part two', 'Part three'],
      },
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds;
    const pending = (await api(system, `/api/v1/posts/${postId}`, { key: account.apiKey })).body;
    expect(pending.firstComment).toMatchObject({
      text: 'First!',
      status: expect.stringMatching(/^(pending|posted)$/),
      failedReason: null,
    });

    const post = await settledPost(
      account.apiKey,
      postId,
      (p) => p.firstComment?.status === 'posted' && p.thread.every((t: { status: string }) => t.status === 'posted'),
    );
    expect(post.status).toBe('posted');
    expect(post.firstComment).toEqual({
      text: 'First!',
      status: 'posted',
      permalink: expect.stringMatching(/threads\.net/),
      failedReason: null,
    });
    expect(post.thread).toEqual([
      { text: 'Part two', status: 'posted', permalink: expect.stringMatching(/threads\.net/), failedReason: null },
      { text: 'Part three', status: 'posted', permalink: expect.stringMatching(/threads\.net/), failedReason: null },
    ]);

    const hooksIn = await waitFor(() => (hooks.received.length >= 2 ? hooks.received : undefined), {
      timeoutMs: 15_000,
      what: 'two deliveries',
    });
    const byType = Object.fromEntries(hooksIn.map((r) => [r.json.type, r.json.data.post]));
    expect(byType['post.first_comment']).toMatchObject({ id: postId, firstComment: post.firstComment });
    expect(byType['post.thread']).toMatchObject({ id: postId, thread: post.thread });
  });

  test('when a first comment is asked for TikTok, then create and validate refuse it with first_comment_unsupported and nothing is stored', async () => {
    const account = await system.seedAccount({ platforms: ['tiktok', 'threads'] });
    const body = {
      platforms: ['tiktok', 'threads'],
      caption: 'c',
      title: 't',
      mediaUrls: ['https://cdn.example.com/v.mp4'],
      platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
      firstComment: 'hello',
    };

    const refused = await api(system, '/api/v1/posts', { method: 'POST', key: account.apiKey, body });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('first_comment_unsupported');
    const validated = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: account.apiKey,
      body: { ...body, thread: ['x'.repeat(501)] },
    });
    expect(validated.body.valid).toBe(false);
    expect(validated.body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'first_comment_unsupported', platform: 'tiktok', field: 'firstComment' }),
        expect.objectContaining({ code: 'validation_error', platform: 'threads', field: 'thread[0]' }),
      ]),
    );
    const list = await api(system, '/api/v1/posts', { key: account.apiKey });
    expect(list.body.data).toHaveLength(0);
  });
});
