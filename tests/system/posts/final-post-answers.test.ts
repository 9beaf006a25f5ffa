import { envelope } from '@postbus/bus';
import { Events, Rpc, SCOPES } from '@postbus/contracts';
import { createTestEnv, metricSample, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api } from '../support/posts-api';

/**
 * The gateway answers a settled post (final, nothing after it pending) from memory once it has
 * answered it: posts is not asked again, the ETag and 304 are the same, and only callers who may
 * see the post get it. A settled post that changes after all (its first comment settled anew) is
 * read anew.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('final_post_answers');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const profileOf = (platform: string) => account.profiles.find((p) => p.platform === platform)!.id;
const get = (id: string, key = account.apiKey, headers: Record<string, string> = {}) =>
  api(system, `/api/v1/posts/${id}`, { key, headers });
/** posts.get calls the gateway made so far. */
const postReads = async () =>
  metricSample(
    await (await fetch(`${system.metricsUrls.gateway}/metrics`)).text(),
    'postbus_rpc_client_duration_seconds_count',
    { rpc: Rpc.postsGet.name, outcome: 'ok' },
  ) ?? 0;

/** A post published now on the account's Threads profile, once posted with its first comment settled. */
async function settledPost(body: Record<string, unknown> = {}): Promise<string> {
  const created = await api(system, '/api/v1/publish', {
    method: 'POST',
    key: account.apiKey,
    body: { platforms: ['threads'], caption: 'settled', profileIds: [profileOf('threads')], ...body },
  });
  expect(created.status).toBe(201);
  const [id] = created.body.postIds;
  await waitFor(
    async () => {
      const post = (await get(id)).body;
      return post.status === 'posted' && post.firstComment?.status !== 'pending' ? true : undefined;
    },
    { timeoutMs: 20_000, what: `post ${id} to settle` },
  );
  return id;
}

describe('GET /api/v1/posts/{id} of a settled post', () => {
  test('when a settled post is read again, then the gateway answers it without asking posts, with the same ETag and 304', async () => {
    const id = await settledPost();
    const first = await get(id);
    const before = await postReads();

    const again = await get(id);
    const waited = await api(system, `/api/v1/posts/${id}?waitFor=final&timeout=5`, { key: account.apiKey });
    const same = await get(id, account.apiKey, { 'if-none-match': first.headers.get('etag')! });

    expect(again.body).toEqual(first.body);
    expect(waited.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('postbus-final')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect([same.status, same.body]).toEqual([304, undefined]);
    expect(await postReads()).toBe(before);
  });

  test('when another account or a key limited to another profile reads a kept post, then 404 post_not_found as for a missing post', async () => {
    const id = await settledPost();
    expect((await get(id)).status).toBe(200);
    const limited = async (platform: string) =>
      (
        await system.bus.rpc.call(Rpc.authIssueKey, {
          accountId: account.accountId,
          userId: account.userId,
          name: `${platform} only`,
          scopes: [...SCOPES],
          profileIds: [profileOf(platform)],
        })
      ).key;

    const refusals = [await get(id, other.apiKey), await get(id, await limited('facebook'))];
    expect(refusals.map((r) => `${r.status} ${r.body.code}`)).toEqual(['404 post_not_found', '404 post_not_found']);
    expect((await get(id, await limited('threads'))).body.id).toBe(id);
  });

  test("when a kept post's first comment settles anew, then the next answer shows it", async () => {
    const id = await settledPost({ firstComment: { threads: 'First!' } });
    const kept = await get(id);
    expect(kept.body.firstComment).toMatchObject({ status: 'posted' });

    const refused = { text: 'First!', status: 'failed' as const, permalink: null, failedReason: 'Removed.' };
    await system.bus.events.publish([
      envelope(Events.postFirstComment, {
        postId: id,
        accountId: account.accountId,
        profileId: profileOf('threads'),
        platform: 'threads',
        firstComment: refused,
        settledAt: new Date().toISOString(),
      }),
    ]);

    const changed = await waitFor(
      async () => {
        const post = (await get(id)).body;
        return post.firstComment?.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 15_000, what: 'the new outcome of the first comment' },
    );
    expect(changed.firstComment).toEqual(refused);
  });
});
