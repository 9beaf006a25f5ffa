import { Client } from 'pg';
import { Rpc, WebhookRoutes, type RouteDef } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { DatabaseFingerprint, fillPath, missingId, pathParams } from '../hostile/support';
import { api, type ApiAnswer } from '../support/posts-api';

/**
 * Webhooks have scopes of their own: webhook:read to see endpoints and deliveries, webhook:write
 * to create, change, delete, rotate and retry. post:read alone opens none of them, except on keys
 * issued before these scopes existed, which keep webhook access (with a Deprecation header) until
 * the sunset.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let fingerprint: DatabaseFingerprint;
let db: Client;
let webhookId: string;

const ROUTES = Object.values(WebhookRoutes) as RouteDef[];
const WRITES = ROUTES.filter((r) => r.method !== 'get');
const READS = ROUTES.filter((r) => r.method === 'get');
const BODIES: Record<string, unknown> = {
  createWebhook: { url: 'http://127.0.0.1:9/hook', events: ['post.failed'] },
  updateWebhook: { description: 'changed' },
};
const codeOf = (a: ApiAnswer) => `${a.status} ${a.body?.code}`;

async function keyWith(scopes: string[]): Promise<string> {
  return (
    await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: scopes.join(' '),
      scopes,
    })
  ).key;
}

function send(route: RouteDef, key: string, id = webhookId): Promise<ApiAnswer> {
  const values: Record<string, string> = { id, deliveryId: missingId('msg') };
  return api(system, fillPath(route, Object.fromEntries(pathParams(route).map((p) => [p, values[p]]))), {
    method: route.method.toUpperCase(),
    key,
    body: BODIES[route.id],
  });
}

beforeAll(async () => {
  env = await createTestEnv('webhook_scopes');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  const hook = await api(system, '/api/v1/webhooks', {
    method: 'POST',
    key: account.apiKey,
    body: BODIES.createWebhook,
  });
  expect(hook.status).toBe(201);
  webhookId = hook.body.id;
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
  db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
});

test('agents have no webhook tools, so no tool can reach webhooks with a weaker scope than REST', () => {
  expect(ROUTES.filter((r) => r.tool).map((r) => r.id)).toEqual([]);
});

test('when a new key holding only post:read calls each webhook write, then 403 insufficient_scope naming webhook:write, and nothing is written', async () => {
  const reader = await keyWith(['post:read']);
  expect((await api(system, '/api/v1/posts?limit=1', { key: reader })).status).toBe(200);
  const before = await fingerprint.take();
  for (const route of WRITES) {
    const r = await send(route, reader);
    expect({
      route: route.id,
      answer: codeOf(r),
      names: r.body.error.includes('webhook:write'),
      deprecation: r.headers.get('deprecation'),
    }).toEqual({ route: route.id, answer: '403 insufficient_scope', names: true, deprecation: null });
  }
  for (const route of READS)
    expect({ route: route.id, answer: codeOf(await send(route, reader)) }).toEqual({
      route: route.id,
      answer: '403 insufficient_scope',
    });
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when a key holds webhook:read, then it reads endpoints and deliveries but every write is 403 insufficient_scope', async () => {
  const watcher = await keyWith(['webhook:read']);
  for (const route of READS)
    expect({ route: route.id, status: (await send(route, watcher)).status }).toEqual({ route: route.id, status: 200 });
  const before = await fingerprint.take();
  for (const route of WRITES)
    expect({ route: route.id, answer: codeOf(await send(route, watcher)) }).toEqual({
      route: route.id,
      answer: '403 insufficient_scope',
    });
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when a key holds webhook:write, then it creates, changes, rotates, retries and deletes', async () => {
  const writer = await keyWith(['webhook:write']);
  const created = await send(WebhookRoutes.createWebhook, writer);
  expect(created.status).toBe(201);
  const id = created.body.id;
  expect(await send(WebhookRoutes.updateWebhook, writer, id)).toMatchObject({
    status: 200,
    body: { id, description: 'changed' },
  });
  expect(await send(WebhookRoutes.rotateWebhookSecret, writer, id)).toMatchObject({
    status: 200,
    body: { id, secret: expect.stringMatching(/^whsec_/) },
  });
  // Past the scope check, a delivery that does not exist is the only refusal left.
  expect(codeOf(await send(WebhookRoutes.retryWebhookDelivery, writer, id))).toBe('404 not_found');
  expect(await send(WebhookRoutes.deleteWebhook, writer, id)).toMatchObject({
    status: 200,
    body: { id, status: 'deleted' },
  });
});

test('when a key issued before the webhook scopes holds post:read, then it still reads and writes webhooks until the sunset, each answer carrying Deprecation, Sunset and a deprecation Link', async () => {
  const { key: legacy, keyId } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: account.accountId,
    userId: account.userId,
    name: 'from before',
    scopes: ['post:read'],
  });
  // What the migration does to keys that existed before: mark them (here before the key's first use).
  const marked = await db.query('UPDATE auth.api_keys SET legacy_webhook_scopes = true WHERE id = $1', [keyId]);
  expect(marked.rowCount).toBe(1);

  const created = await send(WebhookRoutes.createWebhook, legacy);
  const listed = await send(WebhookRoutes.listWebhooks, legacy);
  for (const [what, r] of [
    ['create', created],
    ['list', listed],
  ] as const) {
    expect({ what, status: r.status }).toEqual({ what, status: what === 'create' ? 201 : 200 });
    expect({ what, deprecation: r.headers.get('deprecation') }).toEqual({
      what,
      deprecation: expect.stringMatching(/^@\d+$/),
    });
    expect({ what, sunset: r.headers.get('sunset') }).toEqual({ what, sunset: 'Mon, 01 Mar 2027 00:00:00 GMT' });
    expect({ what, link: r.headers.get('link') }).toEqual({
      what,
      link: expect.stringMatching(/^<https?:\/\/[^>]+>; rel="deprecation"/),
    });
  }
  const refused = await send(WebhookRoutes.getWebhook, legacy, missingId('whk'));
  expect({ answer: codeOf(refused), deprecation: refused.headers.get('deprecation') }).toEqual({
    answer: '404 not_found',
    deprecation: expect.stringMatching(/^@\d+$/),
  });

  const posts = await api(system, '/api/v1/posts?limit=1', { key: legacy });
  expect({ status: posts.status, deprecation: posts.headers.get('deprecation') }).toEqual({
    status: 200,
    deprecation: null,
  });
  const modern = await send(WebhookRoutes.listWebhooks, account.apiKey);
  expect({ status: modern.status, deprecation: modern.headers.get('deprecation') }).toEqual({
    status: 200,
    deprecation: null,
  });
});
