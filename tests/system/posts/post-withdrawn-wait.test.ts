import { createTestEnv, metricSample, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, inHours } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('post_withdrawn_wait');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const waiters = async () =>
  metricSample(await (await fetch(`${system.metricsUrls.gateway}/metrics`)).text(), 'postbus_gateway_post_waiters');

/** A caller waiting up to 30 s for the post to be final; bounded well below that, so only a waiter woken by the change answers in time. */
async function waitingCaller(id: string) {
  const answer = fetch(`${system.baseUrl}/api/v1/posts/${id}?waitFor=final&timeout=30`, {
    headers: { authorization: `Bearer ${account.apiKey}` },
    signal: AbortSignal.timeout(20_000),
  });
  await waitFor(async () => ((await waiters()) === 1 ? true : undefined), {
    timeoutMs: 10_000,
    what: 'the caller to wait',
  });
  return { answer };
}

async function expectFinal(answer: Promise<Response>, status: string) {
  const done = await answer;
  expect(done.status).toBe(200);
  expect(((await done.json()) as { status: string }).status).toBe(status);
  expect(done.headers.get('postbus-final')).toBe('true');
  await waitFor(async () => ((await waiters()) === 0 ? true : undefined), {
    timeoutMs: 10_000,
    what: 'the waiter to be freed',
  });
}

describe('GET /api/v1/posts/{id}?waitFor=final when the post ends without being published', () => {
  test('when the post is cancelled while the caller waits, then the answer is the cancelled post, marked final', async () => {
    const created = await api(system, '/api/v1/posts', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'cancel me while waited on', scheduledTime: inHours(2) },
    });
    expect(created.status).toBe(201);
    const id = created.body.postIds[0] as string;
    const { answer } = await waitingCaller(id);

    expect((await api(system, `/api/v1/posts/${id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(200);
    await expectFinal(answer, 'cancelled');
  });

  test('when the approver rejects the post while the caller waits, then the answer is the rejected post, marked final', async () => {
    const drafted = await api(system, '/api/v1/posts/drafts', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'reject me while waited on', scheduledTime: inHours(3) },
    });
    expect(drafted.status).toBe(201);
    const id = drafted.body.postIds[0] as string;
    const requested = await api(system, `/api/v1/posts/${id}/approval`, { method: 'POST', key: account.apiKey });
    expect(requested.status).toBe(201);
    const { answer } = await waitingCaller(id);

    const link = new URL(requested.body.approvalUrl as string);
    const decided = await fetch(`${link.origin}${link.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${link.searchParams.get('token')}&decision=reject`,
    });
    expect(decided.status).toBe(200);
    await expectFinal(answer, 'rejected');
  });
});
