import { callSandbox, waitFor } from '@postbus/testing';
import { connectBlueskyAppPassword } from '../support/handoff';
import { api as gateway } from '../support/posts-api';
import { useSystem } from '../support/use-system';
import { apiClient, settledActivity } from './harness';

const ctx = useSystem('automation_bluesky', {
  env: { AUTOMATION_POLL_MS: '150', AUTOMATION_RETRY_DELAYS_MS: '100,200', TOKEN_REFRESH_DEDUP_MS: '0' },
  db: true,
});
let api: ReturnType<typeof apiClient>;
beforeAll(() => {
  api = apiClient(ctx.system);
});

interface StrongRef {
  uri: string;
  cid: string;
}

const xrpc = async (nsid: string, init: { token?: string; query?: Record<string, string>; body?: unknown } = {}) => {
  const url = new URL(`${ctx.system.sandboxUrl}/bluesky/xrpc/${nsid}`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

/**
 * An account whose Bluesky profile published a post through Postbus, with the template given; with a
 * `handle`, the profile is connected through the handoff page with an app password (a session with its
 * refresh token), else seeded with an access token only.
 */
async function aBlueskyAccountWith(rules: unknown[], opts: { handle?: string } = {}) {
  const account = await ctx.system.seedAccount({ platforms: opts.handle ? [] : ['bluesky'] });
  const profile = opts.handle
    ? await connectBlueskyAppPassword(ctx.system, account.apiKey, opts.handle)
    : account.profiles[0];
  const created = await gateway(ctx.system, '/api/v1/posts', {
    method: 'POST',
    key: account.apiKey,
    body: { platforms: ['bluesky'], profileIds: [profile.id], caption: 'New prints are in the shop' },
  });
  expect(created.status).toBe(201);
  const postId = created.body.postIds[0] as string;
  await waitFor(
    async () => {
      const r = await gateway(ctx.system, `/api/v1/posts/${postId}`, { key: account.apiKey });
      return r.body.status === 'posted' ? r.body : undefined;
    },
    { timeoutMs: 15_000, what: 'the Bluesky post to be published' },
  );
  const items = (
    await callSandbox<{ id: string; handle: string }[]>(ctx.system.sandboxUrl, 'GET', '/published?platform=bluesky')
  ).body;
  const uri = items.find((i) => i.handle === profile.handle)!.id;
  const res = await api('/api/v1/automation/template', {
    method: 'PUT',
    key: account.apiKey,
    body: { version: 1, rules },
  });
  if (res.status !== 200) throw new Error(`template refused: ${JSON.stringify(res.body)}`);
  return { account, profile, post: await strongRefOf(uri) };
}

async function strongRefOf(uri: string): Promise<StrongRef> {
  const [, , repo, collection, rkey] = uri.split('/');
  // https://docs.bsky.app/docs/api/com-atproto-repo-get-record
  const got = await xrpc('com.atproto.repo.getRecord', { query: { repo, collection, rkey } });
  return { uri: got.body.uri, cid: got.body.cid };
}

/** Another sandbox account, signed in (https://docs.bsky.app/docs/api/com-atproto-server-create-session). */
async function aFan(handle: string) {
  const user = (
    await callSandbox<{ handle: string; accessToken: string }>(ctx.system.sandboxUrl, 'POST', '/users', {
      platform: 'bluesky',
      handle,
    })
  ).body;
  const session = await xrpc('com.atproto.server.createSession', {
    body: { identifier: user.handle, password: user.accessToken },
  });
  return session.body as { did: string; handle: string; accessJwt: string };
}

/** A reply by `fan` (https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds). */
async function replyBy(fan: { did: string; accessJwt: string }, text: string, parent: StrongRef, root: StrongRef) {
  const res = await xrpc('com.atproto.repo.createRecord', {
    token: fan.accessJwt,
    body: {
      repo: fan.did,
      collection: 'app.bsky.feed.post',
      record: { $type: 'app.bsky.feed.post', text, createdAt: new Date().toISOString(), reply: { root, parent } },
    },
  });
  if (res.status !== 200) throw new Error(`the sandbox refused a reply: ${JSON.stringify(res.body)}`);
  return { uri: res.body.uri as string, cid: res.body.cid as string };
}

/** The posts of the account's repository that answer `uri`. */
async function answersTo(did: string, uri: string) {
  const res = await xrpc('com.atproto.repo.listRecords', {
    query: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
  });
  return (res.body.records as { uri: string; value: any }[]).filter((r) => r.value.reply?.parent?.uri === uri);
}

const cursorOf = async (profileId: string) =>
  (await ctx.db.query('SELECT * FROM automation.poll_cursors WHERE profile_id = $1', [profileId])).rows[0];

const priceRule = {
  id: 'price',
  platforms: ['bluesky'],
  trigger: { match: 'any', keywords: ['price'] },
  action: { type: 'reply', text: 'Hi {name}, prices are on the shop page.' },
};

describe('Bluesky replies read from notifications', () => {
  test('when someone replies to a published post, then the template’s reply is posted once in its thread, and later reads do not answer again', async () => {
    const { account, profile, post } = await aBlueskyAccountWith([priceRule]);
    const did = post.uri.split('/')[2];
    const ana = await aFan('ana_fan');
    const ben = await aFan('ben_fan');
    const comment = await replyBy(ana, 'what is the price?', post, post);
    // A reply to ana's reply answers none of the profile's posts: not a comment of its own.
    const deeper = await replyBy(ben, 'price? same question', comment, post);

    const entry = await settledActivity(api, account.apiKey, comment.uri, 'the reply to be answered');
    expect(entry).toMatchObject({
      profileId: profile.id,
      platform: 'bluesky',
      outcome: 'replied',
      reason: 'matched',
      replyText: `Hi ${ana.handle}, prices are on the shop page.`,
    });
    const answers = await answersTo(did, comment.uri);
    expect(answers).toEqual([
      expect.objectContaining({
        uri: entry.replyId,
        value: expect.objectContaining({
          text: entry.replyText,
          reply: { root: post, parent: comment },
        }),
      }),
    ]);

    const polledAt = (await cursorOf(profile.id)).polled_at as Date;
    await waitFor(async () => ((await cursorOf(profile.id)).polled_at > polledAt ? true : undefined), {
      timeoutMs: 10_000,
      what: 'another read of the profile',
    });
    expect(await answersTo(did, comment.uri)).toHaveLength(1);
    const stored = await ctx.db.query(
      'SELECT comment_id FROM automation.comments WHERE platform = $1 AND platform_account_id = $2',
      ['bluesky', did],
    );
    expect(stored.rows.map((r) => r.comment_id)).toEqual([comment.uri]);
    const activity = await api(`/api/v1/automation/activity?commentId=${encodeURIComponent(deeper.uri)}`, {
      key: account.apiKey,
    });
    expect(activity.body.data).toEqual([]);
    expect(JSON.parse((await cursorOf(profile.id)).cursor)).toEqual({
      mark: { at: expect.any(String), uri: deeper.uri },
    });
  });

  test('when the session has expired, then connections refreshes it once and the reply is read and answered', async () => {
    // Connected through the handoff with an app password, so connections holds a refresh token.
    const { account, profile, post } = await aBlueskyAccountWith([priceRule], { handle: 'dana_studio' });
    const fan = await aFan('cleo_fan');
    const before = (await callSandbox<unknown[]>(ctx.system.sandboxUrl, 'GET', '/requests?platform=bluesky')).body
      .length;
    // What a PDS answers for an access token past its two hours (https://docs.bsky.app/docs/advanced-guides/api-directory).
    await callSandbox(ctx.system.sandboxUrl, 'POST', '/faults', {
      platform: 'bluesky',
      mode: 'error',
      operation: 'read',
      status: 400,
      reason: 'ExpiredToken',
      message: 'Token has expired',
    });
    const comment = await replyBy(fan, 'price for two?', post, post);

    const entry = await settledActivity(api, account.apiKey, comment.uri, 'the reply to be answered');

    expect(entry).toMatchObject({ profileId: profile.id, outcome: 'replied' });
    const calls = (
      await callSandbox<{ method: string; path: string }[]>(ctx.system.sandboxUrl, 'GET', '/requests?platform=bluesky')
    ).body.slice(before);
    expect(calls.filter((c) => c.path.endsWith('/com.atproto.server.refreshSession'))).toHaveLength(1);
    expect((await cursorOf(profile.id)).skipped_reason).toBeNull();
  });
});
