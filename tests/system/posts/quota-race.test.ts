import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/** The monthly quota under concurrent creates of one account: exactly the quota is stored, never more. */

const QUOTA = 5;
let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('quota_race');
  system = await startSystem(env, {
    RATE_LIMIT_PER_MINUTE: '0',
    QUOTA_TRIAL_POSTS: String(QUOTA),
    SCHEDULER_TICK_MS: '3600000',
  });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'trial' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

test('when twenty creates of one account arrive at once with room for five, then exactly five are stored and the rest get 403 quota_exceeded', async () => {
  const scheduledTime = new Date(Date.now() + 86_400_000).toISOString();
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${system.baseUrl}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ platforms: ['threads'], caption: `race ${i}`, scheduledTime }),
      }).then(async (r) => ({ status: r.status, code: ((await r.json()) as { code?: string }).code })),
    ),
  );
  expect(answers.filter((a) => a.status === 201)).toHaveLength(QUOTA);
  expect(answers.filter((a) => a.status !== 201)).toEqual(
    Array.from({ length: 20 - QUOTA }, () => ({ status: 403, code: 'quota_exceeded' })),
  );
  const listed = await fetch(`${system.baseUrl}/api/v1/posts?limit=100`, {
    headers: { authorization: `Bearer ${account.apiKey}` },
  }).then((r) => r.json() as Promise<{ data: unknown[] }>);
  expect(listed.data).toHaveLength(QUOTA);
});

test('when the edge holds a verified key, then a create takes the quota from it and needs no answer from auth', async () => {
  const pro = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  const create = (caption: string) =>
    fetch(`${system.baseUrl}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pro.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        platforms: ['threads'],
        caption,
        scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    });
  expect((await create('verified by auth')).status).toBe(201);

  await system.stopService('auth'); // the last test of this file

  const second = await create('quota from the verdict');
  expect(second.status).toBe(201);
});
