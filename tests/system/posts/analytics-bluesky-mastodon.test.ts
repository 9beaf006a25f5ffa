import { callSandbox, waitFor } from '@postbus/testing';
import { api } from '../support/posts-api';
import { FAST_INSIGHTS_ENV, useSystem } from '../support/use-system';

const ctx = useSystem('gateway_analytics_fedi', {
  env: FAST_INSIGHTS_ENV,
  account: { platforms: ['bluesky', 'mastodon'] },
});

const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(ctx.system, path, { ...init, key: ctx.account.apiKey });
const sandbox = async (method: string, path: string, body?: unknown) =>
  (await callSandbox<any>(ctx.system.sandboxUrl, method, path, body)).body;

/** Publishes one post on the platform now and answers the id the platform gave it. */
async function published(platform: 'bluesky' | 'mastodon'): Promise<string> {
  const profile = ctx.account.profiles.find((p) => p.platform === platform)!;
  const created = await call('/api/v1/posts', {
    method: 'POST',
    body: { platforms: [platform], profileIds: [profile.id], caption: `Counted on ${platform} ${Math.random()}` },
  });
  expect(created.status).toBe(201);
  const postId = created.body.postIds[0] as string;
  const post = await waitFor(
    async () => {
      const r = await call(`/api/v1/posts/${postId}`);
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
      const { body } = await call(query);
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
