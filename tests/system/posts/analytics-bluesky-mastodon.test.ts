import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('gateway_analytics_fedi');
  // Engagement is collected 1 s, 4 s and 12 s after publishing here, instead of 1 h, 24 h and 7 days.
  system = await startSystem(env, { INSIGHTS_OFFSETS: '1s,4s,12s', INSIGHTS_INTERVAL_MS: '100' });
  account = await system.seedAccount({ platforms: ['bluesky', 'mastodon'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${account.apiKey}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function sandbox(method: string, path: string, body?: unknown) {
  const res = await fetch(`${system.sandboxUrl}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json() as Promise<any>;
}

/** Publishes one post on the platform now and answers the id the platform gave it. */
async function published(platform: 'bluesky' | 'mastodon'): Promise<string> {
  const profile = account.profiles.find((p) => p.platform === platform)!;
  const created = await api('/api/v1/posts', {
    method: 'POST',
    body: { platforms: [platform], profileIds: [profile.id], caption: `Counted on ${platform} ${Math.random()}` },
  });
  expect(created.status).toBe(201);
  const postId = created.body.postIds[0] as string;
  const post = await waitFor(
    async () => {
      const r = await api(`/api/v1/posts/${postId}`);
      return r.body.status === 'scheduled' ? undefined : r.body;
    },
    { timeoutMs: 15_000, what: `the ${platform} post to be published` },
  );
  expect(post.status).toBe('posted');
  const items = (await sandbox('GET', `/published?platform=${platform}`)) as { id: string; handle: string }[];
  const mine = items.filter((i) => i.handle === profile.handle);
  expect(mine).toHaveLength(1);
  return mine[0].id;
}

test('when Bluesky and Mastodon report likes, replies and reposts, then analytics per platform answers them, with no views', async () => {
  const from = new Date(Date.now() - 60_000).toISOString();
  const [uri, statusId] = await Promise.all([published('bluesky'), published('mastodon')]);
  await sandbox('POST', '/insights', { platform: 'bluesky', id: uri, likes: 31, comments: 4, shares: 6 });
  await sandbox('POST', '/insights', { platform: 'mastodon', id: statusId, likes: 17, comments: 2, shares: 8 });
  const to = new Date(Date.now() + 60_000).toISOString();
  const query = `/api/v1/analytics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&groupBy=platform`;

  const groups = await waitFor(
    async () => {
      const { body } = await api(query);
      const byKey = Object.fromEntries(body.groups.map((g: any) => [g.key, g.engagement]));
      return byKey.bluesky?.likes === 31 && byKey.mastodon?.likes === 17 ? byKey : undefined;
    },
    { timeoutMs: 20_000, what: 'the collections after the figures were set' },
  );

  expect(groups.bluesky).toMatchObject({ posts: 1, views: null, likes: 31, comments: 4, shares: 6 });
  expect(groups.mastodon).toMatchObject({ posts: 1, views: null, likes: 17, comments: 2, shares: 8 });
  const requests = (await sandbox('GET', '/requests?platform=mastodon')) as { path: string; authScheme: string }[];
  expect(requests.filter((r) => r.path.endsWith(`/api/v1/statuses/${statusId}`)).map((r) => r.authScheme)).toContain(
    'Bearer',
  );
});
