import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_approval_expiry');
  system = await startSystem(env, { APPROVAL_TTL_SECONDS: '1' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('an approval link that is not used in time', () => {
  test('when it expires, then the post returns to draft, the link says so, and a new request makes a new link', async () => {
    const created = await api(system, '/api/v1/posts/drafts', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'slow reviewer' },
    });
    const id = created.body.postIds[0];
    const first = await api(system, `/api/v1/posts/${id}/approval`, { method: 'POST', key: account.apiKey });
    expect(first.body.decision).toBe('pending');

    // The scheduler's sweep returns the post to draft without anyone asking.
    await waitFor(
      async () =>
        (await api(system, `/api/v1/posts/${id}`, { key: account.apiKey })).body.status === 'draft' ? true : undefined,
      { what: 'the request to expire' },
    );
    expect((await api(system, `/api/v1/posts/${id}/approval`, { key: account.apiKey })).body).toMatchObject({
      status: 'draft',
      decision: 'expired',
      approvalUrl: null,
    });
    const page = await fetch(first.body.approvalUrl);
    expect(await page.text()).toContain('expired');
    const decided = await fetch(new URL(first.body.approvalUrl).origin + new URL(first.body.approvalUrl).pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${new URL(first.body.approvalUrl).searchParams.get('token')}&decision=approve`,
    });
    expect(await decided.text()).toContain('expired');
    expect((await api(system, `/api/v1/posts/${id}`, { key: account.apiKey })).body.status).toBe('draft');

    const second = await api(system, `/api/v1/posts/${id}/approval`, { method: 'POST', key: account.apiKey });
    expect(second.status).toBe(201);
    expect(second.body.approvalUrl).not.toBe(first.body.approvalUrl);
  });
});
