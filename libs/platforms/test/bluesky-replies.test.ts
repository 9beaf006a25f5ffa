import { startSandbox, type RunningSandbox } from '../../../services/sandbox/src/main';
import {
  BLUESKY_NOTIFICATIONS_PAGE,
  blueskyReplyCursorText,
  blueskyReplyKey,
  createBlueskyPost,
  createBlueskySession,
  getBlueskyPost,
  isPlatformError,
  listBlueskyReplyNotifications,
  newTid,
  parseBlueskyReplyCursor,
  readBlueskyReplies,
  replyOnBluesky,
  type BlueskyApiOptions,
  type BlueskyReplyCursor,
  type BlueskySession,
  type PlatformError,
} from '../src';

/** Reading replies to an account's posts from its notifications, and answering them, against the sandbox's PDS. */
let sandbox: RunningSandbox;
let clock = Date.now();
const seen: { url: URL; authorization: string | null }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0, now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(() => (seen.length = 0));

const pds = () => `${sandbox.url}/bluesky`;
/** Records each request, then sends it on. */
const recording: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  seen.push({ url, authorization: new Headers(init?.headers).get('authorization') });
  return fetch(input, init);
};
const apiOf = (s: BlueskySession): BlueskyApiOptions => ({
  serviceUrl: pds(),
  accessJwt: s.accessJwt,
  fetchImpl: recording,
  timeoutMs: 5000,
});

async function signIn(handle: string): Promise<BlueskySession & { userId: string }> {
  const res = await fetch(`${sandbox.url}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'bluesky', handle }),
  });
  const user = (await res.json()) as { userId: string; handle: string; accessToken: string };
  return { userId: user.userId, ...(await createBlueskySession({ serviceUrl: pds() }, user.handle, user.accessToken)) };
}

/** A post by `s`, a second after the one before on the sandbox's clock. */
async function postBy(
  s: BlueskySession,
  text: string,
  opts: { replyTo?: { uri: string; cid: string }; root?: { uri: string; cid: string }; facets?: unknown[] } = {},
) {
  clock += 1000;
  const reply = opts.replyTo && { root: opts.root ?? opts.replyTo, parent: opts.replyTo };
  return createBlueskyPost({ serviceUrl: pds(), accessJwt: s.accessJwt }, s.did, newTid(clock), {
    text,
    ...(reply && { reply }),
    facets: (opts.facets ?? []) as never,
  });
}

/** Reads until the mark is reached, as a poller would over several ticks. */
async function readAll(s: BlueskySession, state: BlueskyReplyCursor, since?: string) {
  const texts: string[] = [];
  let steps = 0;
  for (;;) {
    const step = await readBlueskyReplies(apiOf(s), s.did, state, since);
    steps++;
    texts.push(...step.replies.map((r) => r.text));
    state = parseBlueskyReplyCursor(blueskyReplyCursorText(step.next));
    if (step.done) return { texts, state, steps };
  }
}

const LIST = '/bluesky/xrpc/app.bsky.notification.listNotifications';

describe('reading replies from Bluesky notifications', () => {
  test('when more replies wait than a page holds, then the reading goes down page by page to the floor, then only what is newer than the mark is read', async () => {
    const alice = await signIn('alice_reads');
    const bob = await signIn('bob_replies');
    const since = new Date(clock).toISOString();
    const post = await postBy(alice, 'New prints are in');
    const count = BLUESKY_NOTIFICATIONS_PAGE + 5;
    for (let i = 1; i <= count; i++) await postBy(bob, `reply ${i}`, { replyTo: post });

    const first = await readAll(alice, {}, since);
    expect(first.steps).toBe(2);
    expect(new Set(first.texts)).toEqual(new Set(Array.from({ length: count }, (_, i) => `reply ${i + 1}`)));
    expect(first.texts).toHaveLength(count);
    expect(seen.map((s) => `${s.url.pathname}${s.url.search}`)).toEqual([
      `${LIST}?reasons=reply&reasons=mention&limit=50&priority=false`,
      `${LIST}?reasons=reply&reasons=mention&limit=50&priority=false&cursor=${encodeURIComponent(
        new Date(clock - (BLUESKY_NOTIFICATIONS_PAGE - 1) * 1000).toISOString(),
      )}`,
    ]);
    expect(seen[0].authorization).toBe(`Bearer ${alice.accessJwt}`);
    expect(first.state).toEqual({ mark: { at: new Date(clock).toISOString(), uri: expect.stringContaining(bob.did) } });

    await postBy(bob, 'one more', { replyTo: post });
    await postBy(bob, 'and another', { replyTo: post });
    seen.length = 0;
    const second = await readAll(alice, first.state);
    expect(second).toMatchObject({ texts: ['one more', 'and another'], steps: 1 });
    expect(seen).toHaveLength(1);
    const third = await readAll(alice, second.state);
    expect(third).toEqual({ texts: [], state: second.state, steps: 1 });
  });

  test('when a reading stops before the mark, then the next one goes on from its cursor and nothing in between is missed', async () => {
    const alice = await signIn('alice_walks');
    const bob = await signIn('bob_walks');
    const post = await postBy(alice, 'Walk');
    await postBy(bob, 'before the mark', { replyTo: post });
    const marked = await readAll(alice, {}, new Date(0).toISOString());
    for (let i = 1; i <= BLUESKY_NOTIFICATIONS_PAGE + 2; i++) await postBy(bob, `new ${i}`, { replyTo: post });

    const step = await readBlueskyReplies(apiOf(alice), alice.did, marked.state);
    expect(step.done).toBe(false);
    expect(step.next).toMatchObject({ mark: marked.state.mark, walk: { cursor: expect.any(String) } });
    // A reply written meanwhile is newer than the walk's top: read after the walk ends, not lost.
    await postBy(bob, 'during the walk', { replyTo: post });
    const rest = await readAll(alice, step.next);
    const after = await readAll(alice, rest.state);
    expect([...step.replies.map((r) => r.text), ...rest.texts].sort()).toEqual(
      Array.from({ length: BLUESKY_NOTIFICATIONS_PAGE + 2 }, (_, i) => `new ${i + 1}`).sort(),
    );
    expect(after.texts).toEqual(['during the walk']);
  });

  test('when posts answer other posts, mention the account or are its own, then only others’ replies to its own posts are taken, with their thread', async () => {
    const alice = await signIn('alice_own');
    const bob = await signIn('bob_thread');
    const carol = await signIn('carol_deep');
    const post = await postBy(alice, 'Root');
    const bobs = await postBy(bob, 'first', { replyTo: post });
    await postBy(carol, 'deeper, answering bob', { replyTo: bobs, root: post });
    await postBy(alice, 'my own reply', { replyTo: post });
    const mentionText = `@${alice.handle} price?`;
    const mentionFacet = {
      index: { byteStart: 0, byteEnd: alice.handle.length + 1 },
      features: [{ $type: 'app.bsky.richtext.facet#mention', did: alice.did }],
    };
    const mentioning = await postBy(carol, mentionText, { replyTo: post, facets: [mentionFacet] });
    await postBy(carol, `@${alice.handle} not a reply`, { facets: [mentionFacet] });

    const page = await listBlueskyReplyNotifications(apiOf(alice), alice.did, undefined);
    expect(page.items).toHaveLength(4);
    expect(page.items.filter((i) => i.reply).map((i) => i.reply!.text)).toEqual([mentionText, 'first']);
    expect(page.items.find((i) => i.reply?.text === 'first')!.reply).toEqual({
      uri: bobs.uri,
      cid: bobs.cid,
      parentUri: post.uri,
      root: { uri: post.uri, cid: post.cid },
      text: 'first',
      authorDid: bob.did,
      authorHandle: bob.handle,
      createdAt: expect.any(String),
      indexedAt: expect.any(String),
    });
    expect(page.items[1].reply?.uri).toBe(mentioning.uri);
    expect(page.cursor).toBeUndefined();
  });
});

describe('answering a Bluesky reply', () => {
  test('when a reply is answered twice, then one post answers it in its thread, under a key the comment decides', async () => {
    const alice = await signIn('alice_answers');
    const bob = await signIn('bob_asks');
    const post = await postBy(alice, 'Shop');
    const bobs = await postBy(bob, 'price?', { replyTo: post });
    const comment = { uri: bobs.uri, cid: bobs.cid, root: { uri: post.uri, cid: post.cid } };

    const first = await replyOnBluesky(apiOf(alice), alice.did, comment, 'See https://shop.example #prints');
    const again = await replyOnBluesky(apiOf(alice), alice.did, comment, 'See https://shop.example #prints');
    const key = blueskyReplyKey(bobs.uri);
    expect(first).toEqual({ id: `at://${alice.did}/app.bsky.feed.post/${key}` });
    expect(again).toEqual(first);
    const stored = await getBlueskyPost(apiOf(alice), alice.did, key);
    expect(stored!.value).toMatchObject({
      text: 'See https://shop.example #prints',
      reply: { root: { uri: post.uri, cid: post.cid }, parent: { uri: bobs.uri, cid: bobs.cid } },
      facets: [
        expect.objectContaining({ features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://shop.example' }] }),
        expect.objectContaining({ features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'prints' }] }),
      ],
    });
    const replies = [...sandbox.state.bluesky.records.values()].filter(
      (r) => (r.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri === bobs.uri,
    );
    expect(replies).toHaveLength(1);
  });

  test('when comments differ, then their keys are TIDs that differ; the same comment always has the same key', () => {
    const a = blueskyReplyKey('at://did:plc:abc/app.bsky.feed.post/3n3xtvevaas2k');
    const b = blueskyReplyKey('at://did:plc:abd/app.bsky.feed.post/3n3xtvevaas2k');
    const odd = blueskyReplyKey('at://did:plc:abc/app.bsky.feed.post/self');
    for (const k of [a, b, odd]) expect(k).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
    expect(a).not.toBe(b);
    expect(blueskyReplyKey('at://did:plc:abc/app.bsky.feed.post/3n3xtvevaas2k')).toBe(a);
    // Just after the comment's own key in time: 3n3xtvevaas2k sorts before its answer.
    expect(a > '3n3xtvevaas2k').toBe(true);
  });

  test('when the text is longer than 300 graphemes, then nothing is sent and it fails text_too_long', async () => {
    const alice = await signIn('alice_long');
    const comment = {
      uri: `at://${alice.did}/app.bsky.feed.post/3n3xtvevaas2k`,
      cid: 'bafy',
      root: { uri: 'at://x/app.bsky.feed.post/3n3xtvevaas2k', cid: 'bafy' },
    };
    const err = (await replyOnBluesky(apiOf(alice), alice.did, comment, 'x'.repeat(301)).catch(
      (e: unknown) => e,
    )) as PlatformError;
    expect(err).toMatchObject({ code: 'text_too_long', transient: false });
    expect(seen).toEqual([]);
  });
});

describe('refusals', () => {
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as PlatformError,
    );

  test('when the session is missing or revoked, then the read is refused as a token the account must renew', async () => {
    const alice = await signIn('alice_revoked');
    const none = await refusal(listBlueskyReplyNotifications({ serviceUrl: pds() }, alice.did, undefined));
    expect(none).toMatchObject({ status: 401, code: 'AuthenticationRequired', tokenRejected: true });
    await fetch(`${sandbox.url}/__sandbox/users/${alice.userId}/revoke`, { method: 'POST' });
    const revoked = await refusal(listBlueskyReplyNotifications(apiOf(alice), alice.did, undefined));
    expect(revoked).toMatchObject({ status: 401, code: 'InvalidToken', tokenRejected: true });
  });

  test('when the PDS throttles, then the read may be tried again at the reset it names', async () => {
    const alice = await signIn('alice_throttled');
    sandbox.state.faults.add({ platform: 'bluesky', mode: 'throttle', operation: 'read', count: 1, applied: false });
    const err = await refusal(listBlueskyReplyNotifications(apiOf(alice), alice.did, undefined));
    expect(isPlatformError(err)).toBe(true);
    expect(err).toMatchObject({ status: 429, transient: true, throttle: { kind: 'rate_limit' } });
  });

  test('when a limit out of range, a seenAt or a cursor that is no time is sent, then the PDS refuses it as the reference does', async () => {
    const alice = await signIn('alice_params');
    const ask = async (query: string) => {
      const res = await fetch(`${sandbox.url}${LIST}?${query}`, {
        headers: { authorization: `Bearer ${alice.accessJwt}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await ask('limit=0')).toEqual({
      status: 400,
      body: {
        error: 'InvalidRequest',
        message: 'Invalid app.bsky.notification.listNotifications params: integer too small (minimum 1, got 0)',
      },
    });
    expect(await ask('limit=101')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } });
    expect(await ask('limit=ten')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } });
    expect(await ask('seenAt=2026-01-01T00:00:00Z')).toMatchObject({
      status: 400,
      body: { message: 'The seenAt parameter is unsupported' },
    });
    expect(await ask('cursor=garbage')).toMatchObject({ status: 502, body: { error: 'InternalServerError' } });
    expect(await ask('limit=100&priority=false')).toEqual({
      status: 200,
      body: { notifications: [], priority: false },
    });
  });

  test('when the answer carries no notifications, then the read fails invalid_answer and may be tried again', async () => {
    const api: BlueskyApiOptions = {
      serviceUrl: pds(),
      accessJwt: 'x',
      fetchImpl: async () => Response.json({ cursor: 'x' }),
    };
    const err = await refusal(listBlueskyReplyNotifications(api, 'did:plc:x', undefined));
    expect(err).toMatchObject({ code: 'invalid_answer', transient: true });
  });

  test('when the answer is larger than 1 MiB, then it is left unread and the read fails answer_too_large', async () => {
    const api: BlueskyApiOptions = {
      serviceUrl: pds(),
      accessJwt: 'x',
      fetchImpl: async () =>
        new Response(JSON.stringify({ notifications: [], pad: 'x'.repeat(1024 * 1024) }), {
          headers: { 'content-type': 'application/json' },
        }),
    };
    const err = await refusal(listBlueskyReplyNotifications(api, 'did:plc:x', undefined));
    expect(err).toMatchObject({ code: 'answer_too_large', transient: false });
  });
});
