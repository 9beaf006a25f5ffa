import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, endedPost, inHours, publishedOn } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_manage');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
});
afterAll(async () => {
  // Drop the platform request a test held open, so the publisher does not wait it out on stop.
  if (system) await fetch(`${system.sandboxUrl}/__sandbox/reset`, { method: 'POST' });
  await system?.stop();
  await env?.drop();
});

const post = (path: string, body: unknown, key = account.apiKey) => api(system, path, { method: 'POST', key, body });
const patch = (id: string, body: unknown, key = account.apiKey) =>
  api(system, `/api/v1/posts/${id}`, { method: 'PATCH', key, body });
const cancel = (id: string, key = account.apiKey) => api(system, `/api/v1/posts/${id}`, { method: 'DELETE', key });
const get = (id: string, key = account.apiKey) => api(system, `/api/v1/posts/${id}`, { key });
const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

async function scheduled(caption: string, extra: Record<string, unknown> = {}, key = account.apiKey): Promise<string> {
  const r = await post('/api/v1/posts', { platforms: ['threads'], caption, scheduledTime: inHours(2), ...extra }, key);
  expect(r.status).toBe(201);
  return r.body.postIds[0];
}

const settled = (id: string, key = account.apiKey) => endedPost(system, key, id, 15_000);

describe('GET /api/v1/posts', () => {
  let owner: SeededAccount;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
    const at = (h: number) => new Date(Date.UTC(2031, 0, 1, h)).toISOString();
    const mk = async (name: string, path: string, body: Record<string, unknown>) => {
      const r = await post(path, { caption: name, ...body }, owner.apiKey);
      expect(r.status).toBe(201);
      ids[name] = r.body.postIds[0];
    };
    await mk('one', '/api/v1/posts', { platforms: ['threads'], scheduledTime: at(9), category: 'launch' });
    await mk('two', '/api/v1/posts', {
      platforms: ['threads'],
      scheduledTime: at(10),
      category: 'news',
      externalId: 'crm-2',
    });
    await mk('three', '/api/v1/posts', { platforms: ['facebook'], scheduledTime: at(11), category: 'launch' });
    await mk('four', '/api/v1/posts/drafts', { platforms: ['threads'] });
    await mk('five', '/api/v1/posts', { platforms: ['threads'], scheduledTime: at(12) });
  });

  const list = async (query = '') => {
    const r = await api(system, `/api/v1/posts${query}`, { key: owner.apiKey });
    expect(r.status).toBe(200);
    return r.body as { data: { id: string; caption: string }[]; nextCursor: string | null };
  };
  const names = (page: { data: { caption: string }[] }) => page.data.map((p) => p.caption);

  test('when pages are followed with the cursor, then every post comes once, newest first, and the last page has no cursor', async () => {
    const seen: string[] = [];
    let page = await list('?limit=2');
    expect(page.data).toHaveLength(2);
    seen.push(...names(page));
    while (page.nextCursor) {
      page = await list(`?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`);
      seen.push(...names(page));
    }
    expect(seen).toEqual(['five', 'four', 'three', 'two', 'one']);
  });

  test('when filters are given, then only matching posts are listed', async () => {
    expect(names(await list('?status=draft'))).toEqual(['four']);
    expect(names(await list('?status=draft,scheduled&platform=facebook'))).toEqual(['three']);
    expect(names(await list('?category=launch'))).toEqual(['three', 'one']);
    expect(names(await list('?externalId=crm-2'))).toEqual(['two']);
    const threadsProfile = owner.profiles.find((p) => p.platform === 'threads')!.id;
    expect(names(await list(`?profileId=${threadsProfile}`))).toEqual(['five', 'four', 'two', 'one']);
    expect(names(await list('?from=2031-01-01T10:00:00Z&to=2031-01-01T12:00:00Z'))).toEqual(['three', 'two']);
    expect(names(await list('?from=2031-01-01T11:00:00%2B01:00'))).toEqual(['five', 'three', 'two']);
  });

  test('when another account lists, then none of these posts appear', async () => {
    const r = await api(system, '/api/v1/posts?limit=100', { key: account.apiKey });
    expect(r.body.data.map((p: { id: string }) => p.id)).not.toEqual(expect.arrayContaining([ids.one]));
  });

  test('when limit, cursor, time or status filters are malformed, then 400 validation_error', async () => {
    for (const q of [
      '?limit=101',
      '?limit=0',
      '?limit=ten',
      '?cursor=garbage',
      '?from=2031-01-01T10:00:00',
      '?status=sent',
      '?platform=myspace',
    ]) {
      const r = await api(system, `/api/v1/posts${q}`, { key: owner.apiKey });
      expect({ q, status: r.status, code: r.body.code }).toEqual({ q, status: 400, code: 'validation_error' });
    }
  });
});

describe('PATCH /api/v1/posts/{id}', () => {
  test('when a scheduled post is changed, then the post answers with the changes and keeps the rest', async () => {
    const id = await scheduled('before', { category: 'a' });
    const at = inHours(8);
    const r = await patch(id, { caption: 'after', scheduledTime: at, mediaUrls: ['https://cdn.example.com/p.jpg'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      status: 'scheduled',
      caption: 'after',
      scheduledTime: at,
      mediaUrls: ['https://cdn.example.com/p.jpg'],
      category: 'a',
    });
    expect((await get(id)).body.caption).toBe('after');
  });

  test('when the change breaks a rule, then 400 with the rule’s code and the post is unchanged', async () => {
    const id = await scheduled('keep me');
    expect((await patch(id, { caption: 'x'.repeat(501) })).body.code).toBe('validation_error');
    expect((await patch(id, { scheduledTime: '2030-01-01T10:00:00' })).body.code).toBe('invalid_scheduled_time');
    expect((await patch(id, { scheduledTime: '2020-01-01T10:00:00Z' })).body.code).toBe('scheduled_time_in_past');
    expect((await patch(id, { caption: '' })).body.code).toBe('missing_content');
    const unknown = await patch(id, { platforms: ['facebook'] });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 400, code: 'validation_error' });
    expect((await get(id)).body.caption).toBe('keep me');
  });

  test('when the post belongs to another account or does not exist, then 404 post_not_found', async () => {
    const other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const theirs = await scheduled('theirs', {}, other.apiKey);
    expect((await patch(theirs, { caption: 'mine now' })).body.code).toBe('post_not_found');
    expect((await patch('pst_missing', { caption: 'x' })).status).toBe(404);
  });

  test('when the key is limited to other profiles, then 404 post_not_found, as if the post did not exist, and it is unchanged', async () => {
    const id = await scheduled('guarded');
    const facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'fb',
      scopes: ['post:write'],
      profileIds: [facebook],
    });
    const r = await patch(id, { caption: 'hijacked' }, key);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 'post_not_found' });
    expect((await get(id)).body.caption).toBe('guarded');
  });

  test('when the post is already posted or cancelled, then 409 post_not_editable', async () => {
    const published = await post('/api/v1/publish', { platforms: ['threads'], caption: `done ${Date.now()}` });
    const done = await settled(published.body.postIds[0]);
    expect(done.status).toBe('posted');
    const r = await patch(done.id, { caption: 'too late' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 409, code: 'post_not_editable' });
    const id = await scheduled('to cancel');
    expect((await cancel(id)).status).toBe(200);
    expect((await patch(id, { caption: 'revived?' })).body.code).toBe('post_not_editable');
  });
});

describe('DELETE /api/v1/posts/{id}', () => {
  test('when a scheduled post is cancelled, then it answers cancelled, is never published, and cannot be cancelled again', async () => {
    const caption = `never ${Date.now()}`;
    const control = `control ${Date.now()}`;
    const due = soon(1500);
    const [victim, witness] = await Promise.all([
      scheduled(caption, { scheduledTime: due }),
      scheduled(control, { scheduledTime: due }),
    ]);
    const r = await cancel(victim);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: victim, status: 'cancelled', caption });
    expect((await settled(witness)).status).toBe('posted');
    expect((await get(victim)).body.status).toBe('cancelled');
    expect((await publishedOn(system, 'threads')).filter((p) => p.text === caption)).toHaveLength(0);
    const again = await cancel(victim);
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'post_not_editable' });
  });

  test('when the post was dispatched to the platform, then change and cancel both answer 409 post_not_editable', async () => {
    const hold = await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'threads', mode: 'timeout', operation: 'create', applied: false, count: 1 }),
    });
    expect(hold.ok).toBe(true);
    const created = await post('/api/v1/publish', { platforms: ['threads'], caption: `held ${Date.now()}` });
    const id = created.body.postIds[0];
    // The fault is used once the publisher, holding the dispatched post, calls the platform.
    await waitFor(
      async () => {
        const faults = (await (await fetch(`${system.sandboxUrl}/__sandbox/faults?platform=threads`)).json()) as
          unknown[] | { faults: unknown[] };
        return (Array.isArray(faults) ? faults : faults.faults).length === 0 ? true : undefined;
      },
      { what: 'the publisher to call the platform' },
    );
    expect((await get(id)).body.status).toBe('scheduled');
    const changed = await patch(id, { caption: 'late change' });
    const cancelled = await cancel(id);
    expect([changed.status, changed.body.code, cancelled.status, cancelled.body.code]).toEqual([
      409,
      'post_not_editable',
      409,
      'post_not_editable',
    ]);
    expect(cancelled.body.error).toMatch(/dispatched/);
  });

  test('when a posted post is cancelled, then 409 post_not_editable', async () => {
    const published = await post('/api/v1/publish', { platforms: ['threads'], caption: `posted ${Date.now()}` });
    const done = await settled(published.body.postIds[0]);
    const r = await cancel(done.id);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 409, code: 'post_not_editable' });
    expect((await get(done.id)).body.status).toBe('posted');
  });
});

describe('drafts', () => {
  test('when a draft is stored, then it has status draft, no time, and the same rules apply', async () => {
    const r = await post('/api/v1/posts/drafts', { platforms: ['threads', 'facebook'], caption: 'an idea' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ postIds: [expect.any(String), expect.any(String)], status: 'draft', scheduledTime: null });
    expect((await get(r.body.postIds[0])).body).toMatchObject({
      status: 'draft',
      scheduledTime: null,
      caption: 'an idea',
    });
    expect((await post('/api/v1/posts/drafts', { platforms: [], caption: 'x' })).body.code).toBe('missing_platforms');
    expect(
      (
        await post('/api/v1/posts/drafts', {
          platforms: ['threads'],
          caption: 'x',
          scheduledTime: '2020-01-01T00:00:00Z',
        })
      ).body.code,
    ).toBe('scheduled_time_in_past');
  });

  test('when the key has post:draft but not post:write, then it may draft but not post; without post:draft, 403 insufficient_scope', async () => {
    const { key: drafter } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'drafter',
      scopes: ['post:draft'],
    });
    expect((await post('/api/v1/posts/drafts', { platforms: ['threads'], caption: 'ok' }, drafter)).status).toBe(201);
    expect((await post('/api/v1/posts', { platforms: ['threads'], caption: 'no' }, drafter)).body.code).toBe(
      'insufficient_scope',
    );
    const { key: writer } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'writer',
      scopes: ['post:write'],
    });
    const r = await post('/api/v1/posts/drafts', { platforms: ['threads'], caption: 'no' }, writer);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'insufficient_scope' });
  });

  test('when a draft’s time passes, then it is not published; once given a scheduledTime it is scheduled and published', async () => {
    const caption = `draft ${Date.now()}`;
    const due = soon(1200);
    const draft = await post('/api/v1/posts/drafts', { platforms: ['threads'], caption, scheduledTime: due });
    const witness = await scheduled(`witness ${Date.now()}`, { scheduledTime: due });
    expect((await settled(witness)).status).toBe('posted');
    const id = draft.body.postIds[0];
    expect((await get(id)).body.status).toBe('draft');
    expect((await patch(id, { caption: `${caption}!` })).body.status).toBe('draft');
    expect((await publishedOn(system, 'threads')).filter((p) => p.text.startsWith(caption))).toHaveLength(0);

    const r = await patch(id, { scheduledTime: soon(400) });
    expect(r.body.status).toBe('scheduled');
    expect((await settled(id)).status).toBe('posted');
    expect((await publishedOn(system, 'threads')).filter((p) => p.text === `${caption}!`)).toHaveLength(1);
  });

  test('when a draft is sent twice with the same Idempotency-Key, then it is stored once', async () => {
    const headers = { 'idempotency-key': `draft-${Date.now()}` };
    const body = { platforms: ['threads'], caption: 'once only' };
    const a = await api(system, '/api/v1/posts/drafts', { method: 'POST', key: account.apiKey, body, headers });
    const b = await api(system, '/api/v1/posts/drafts', { method: 'POST', key: account.apiKey, body, headers });
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.body.postIds).toEqual(a.body.postIds);
  });
});
