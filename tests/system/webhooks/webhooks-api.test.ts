import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { api } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';
import { createWebhook } from './webhooks-api';

// Loopback is refused here, as in production: the URLs below are literal public addresses (no DNS needed).
const PUBLIC_URL = 'https://93.184.216.34/hooks/postbus';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('webhooks_api');
  system = await startSystem(env, { WEBHOOKS_ALLOW_LOOPBACK: 'false' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('managing webhook endpoints', () => {
  test('when an endpoint is created, then 201 answers it with a whsec_ secret, which no later read shows', async () => {
    const created = await api(system, '/api/v1/webhooks', {
      method: 'POST',
      key: account.apiKey,
      body: { url: PUBLIC_URL, events: ['post.published', 'post.failed'], description: 'results' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      url: PUBLIC_URL,
      events: ['post.published', 'post.failed'],
      description: 'results',
      status: 'enabled',
      disabledReason: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}=*$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const read = await api(system, `/api/v1/webhooks/${created.body.id}`, { key: account.apiKey });
    expect(read.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(read.body).toEqual(withoutSecret);
    expect(JSON.stringify(read.body)).not.toContain(created.body.secret.slice(6));

    const list = await api(system, '/api/v1/webhooks', { key: account.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  test('when an endpoint is changed, paused and resumed, then each answer shows the new state', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const changed = await api(system, `/api/v1/webhooks/${w.id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { url: 'https://93.184.216.35/other', events: ['post.failed', 'post.cancelled'], description: 'moved' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://93.184.216.35/other',
      events: ['post.failed', 'post.cancelled'],
      description: 'moved',
      status: 'enabled',
    });

    const paused = await api(system, `/api/v1/webhooks/${w.id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { enabled: false },
    });
    expect(paused.body).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringContaining('Paused'),
      disabledAt: expect.any(String),
    });
    const resumed = await api(system, `/api/v1/webhooks/${w.id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { enabled: true, description: null },
    });
    expect(resumed.body).toMatchObject({
      status: 'enabled',
      disabledReason: null,
      disabledAt: null,
      description: null,
    });
  });

  test('when the secret is rotated, then a new secret is shown once and the previous one is announced to sign for 24 hours', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const rotated = await api(system, `/api/v1/webhooks/${w.id}/rotate-secret`, {
      method: 'POST',
      key: account.apiKey,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(w.secret);
    const overlapHours =
      (Date.parse(rotated.body.previousSecretExpiresAt) - Date.parse(rotated.body.updatedAt)) / 3600_000;
    expect(overlapHours).toBe(24);
    const read = await api(system, `/api/v1/webhooks/${w.id}`, { key: account.apiKey });
    expect(read.body.secret).toBeUndefined();
    expect(read.body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
  });

  test('when an endpoint is deleted, then it answers its final state and is gone afterwards', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const deleted = await api(system, `/api/v1/webhooks/${w.id}`, { method: 'DELETE', key: account.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: w.id, status: 'deleted', deletedAt: expect.any(String) });
    expect((await api(system, `/api/v1/webhooks/${w.id}`, { key: account.apiKey })).body.code).toBe('not_found');
    expect((await api(system, `/api/v1/webhooks/${w.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(404);
    const list = await api(system, '/api/v1/webhooks', { key: account.apiKey });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(w.id);
  });

  test('when an endpoint has no deliveries yet, then its deliveries list is empty with no next page', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const page = await api(system, `/api/v1/webhooks/${w.id}/deliveries`, { key: account.apiKey });
    expect({ status: page.status, body: page.body }).toEqual({ status: 200, body: { data: [], nextCursor: null } });
  });
});

describe('tenancy', () => {
  test('when another account uses an endpoint id, then every route answers 404 not_found, as for a missing one', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const other = await system.seedAccount({ platforms: [] });
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/webhooks/${w.id}`],
      ['PATCH', `/api/v1/webhooks/${w.id}`, { description: 'mine now' }],
      ['DELETE', `/api/v1/webhooks/${w.id}`],
      ['POST', `/api/v1/webhooks/${w.id}/rotate-secret`],
      ['GET', `/api/v1/webhooks/${w.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${w.id}/deliveries/msg_whatever/retry`],
    ];
    for (const [method, path, body] of calls) {
      const theirs = await api(system, path, { method, key: other.apiKey, body });
      const missing = await api(system, path.replace(w.id, 'whk_doesnotexist'), { method, key: other.apiKey, body });
      expect([method, path, theirs.status, theirs.body.code]).toEqual([method, path, 404, 'not_found']);
      expect(missing.body.code).toBe('not_found');
    }
    expect((await api(system, '/api/v1/webhooks', { key: other.apiKey })).body.data).toEqual([]);
    const still = await api(system, `/api/v1/webhooks/${w.id}`, { key: account.apiKey });
    expect(still.body).toMatchObject({ status: 'enabled', description: null });
  });

  test('when a delivery id is unknown for the endpoint, then retry answers 404 not_found', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const r = await api(system, `/api/v1/webhooks/${w.id}/deliveries/msg_nope/retry`, {
      method: 'POST',
      key: account.apiKey,
    });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.any(String), code: 'not_found' });
  });
});

describe('refusing bad input', () => {
  test.each([
    ['a loopback address', 'http://127.0.0.1:8080/hook', 'loopback'],
    ['localhost', 'http://localhost/hook', 'loopback'],
    ['a private address', 'http://10.1.2.3/hook', 'private'],
    ['a private IPv6 address', 'http://[fd12::1]/hook', 'unique local'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', 'cloud metadata'],
    ['an unspecified address', 'http://0.0.0.0/hook', 'unspecified'],
    ['a non-http scheme', 'ftp://93.184.216.34/hook', 'http'],
    ['credentials in the URL', 'https://user:pw@93.184.216.34/hook', 'credentials'],
    ['not a URL', 'hooks please', 'valid URL'],
  ])('when the URL is %s, then 400 validation_error says why and nothing is created', async (_what, url, why) => {
    const before = (await api(system, '/api/v1/webhooks', { key: account.apiKey })).body.data.length;
    const r = await api(system, '/api/v1/webhooks', {
      method: 'POST',
      key: account.apiKey,
      body: { url, events: ['post.published'] },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.error).toContain(why);
    expect((await api(system, '/api/v1/webhooks', { key: account.apiKey })).body.data.length).toBe(before);
  });

  test('when a change points the URL inside the network, then 400 validation_error and the URL stays', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    const r = await api(system, `/api/v1/webhooks/${w.id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { url: 'http://192.168.1.20/hook' },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect((await api(system, `/api/v1/webhooks/${w.id}`, { key: account.apiKey })).body.url).toBe(PUBLIC_URL);
  });

  test.each([
    ['no events', { url: PUBLIC_URL, events: [] }, 'events'],
    ['an unknown event', { url: PUBLIC_URL, events: ['post.exploded'] }, 'events'],
    ['a repeated event', { url: PUBLIC_URL, events: ['post.failed', 'post.failed'] }, 'events'],
    ['no url', { events: ['post.failed'] }, 'url'],
    ['an unknown field', { url: PUBLIC_URL, events: ['post.failed'], secret: 'whsec_mine' }, 'secret'],
  ])('when the body has %s, then 400 validation_error names the field', async (_what, body, field) => {
    const r = await api(system, '/api/v1/webhooks', { method: 'POST', key: account.apiKey, body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.error).toContain(field);
  });

  test('when the deliveries cursor or limit is not one of ours, then 400 validation_error', async () => {
    const w = await createWebhook(system, account.apiKey, { url: PUBLIC_URL, events: ['post.published'] });
    for (const query of [
      'cursor=bm9wZQ',
      `cursor=${Buffer.from('msg_notthisone').toString('base64url')}`,
      'limit=0',
      'limit=many',
      'limit=1000',
    ]) {
      const r = await api(system, `/api/v1/webhooks/${w.id}/deliveries?${query}`, { key: account.apiKey });
      expect([query, r.status, r.body.code]).toEqual([query, 400, 'validation_error']);
    }
  });

  test('when the body is not JSON, then 400 invalid_json', async () => {
    const r = await api(system, '/api/v1/webhooks', { method: 'POST', key: account.apiKey, rawBody: '{"url": ' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
  });

  test('when no key is sent, then 401 missing_api_key', async () => {
    const r = await api(system, '/api/v1/webhooks');
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('missing_api_key');
  });

  test('when the key lacks webhook:write, then 403 insufficient_scope', async () => {
    const writer = await system.seedAccount({ platforms: [], scopes: ['post:write', 'post:read', 'webhook:read'] });
    const r = await api(system, '/api/v1/webhooks', {
      method: 'POST',
      key: writer.apiKey,
      body: { url: PUBLIC_URL, events: ['post.published'] },
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('insufficient_scope');
  });
});
