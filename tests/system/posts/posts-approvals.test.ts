import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { startSystem, type RunningSystem } from '../support/system';
import { api, inHours } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let browser: Browser;

beforeAll(async () => {
  env = await createTestEnv('posts_approvals');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

const get = (path: string, key = account.apiKey) => api(system, path, { key });
const post = (path: string, body?: unknown, key = account.apiKey) => api(system, path, { method: 'POST', key, body });

async function draft(caption: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await post('/api/v1/posts/drafts', { platforms: ['threads'], caption, ...extra });
  expect(r.status).toBe(201);
  return r.body.postIds[0];
}

async function requested(caption: string, extra: Record<string, unknown> = {}) {
  const id = await draft(caption, extra);
  const r = await post(`/api/v1/posts/${id}/approval`);
  expect(r.status).toBe(201);
  return { id, approvalUrl: r.body.approvalUrl as string, body: r.body };
}

/** Opens the link in Chromium and presses a button; answers the outcome headline. */
async function decideInBrowser(approvalUrl: string, button: 'Approve' | 'Reject'): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(approvalUrl);
    await Promise.all([
      page.waitForURL((u) => !u.search.includes('token=')),
      page.getByRole('button', { name: button }).click(),
    ]);
    return (await page.getByTestId('outcome').textContent()) ?? '';
  } finally {
    await page.close();
  }
}

describe('requesting approval', () => {
  test('when a draft is sent for approval, then it is pending_approval with a link under the base URL; asking again answers the same link', async () => {
    const { id, body } = await requested('needs a yes');
    expect(body).toEqual({
      postId: id,
      status: 'pending_approval',
      decision: 'pending',
      approvalUrl: expect.stringMatching(/\/approvals\/apr_\w+\?token=[\w-]+$/),
      expiresAt: expect.any(String),
      requestedAt: expect.any(String),
      decidedAt: null,
    });
    expect(body.approvalUrl.startsWith(`${system.baseUrl}/approvals/`)).toBe(true);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    const again = await post(`/api/v1/posts/${id}/approval`);
    expect(again.status).toBe(200);
    expect(again.body.approvalUrl).toBe(body.approvalUrl);
    expect((await get(`/api/v1/posts/${id}/approval`)).body).toMatchObject({
      postId: id,
      status: 'pending_approval',
      decision: 'pending',
      approvalUrl: body.approvalUrl,
    });
    expect((await get(`/api/v1/posts/${id}`)).body.status).toBe('pending_approval');
    const edit = await api(system, `/api/v1/posts/${id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { caption: 'sneaky' },
    });
    expect({ status: edit.status, code: edit.body.code }).toEqual({ status: 409, code: 'post_not_editable' });
  });

  test('when the post is not a draft, missing, or has no approval, then 409 post_not_editable, 404 post_not_found, 404 not_found', async () => {
    const scheduled = await post('/api/v1/posts', {
      platforms: ['threads'],
      caption: 'already on',
      scheduledTime: inHours(2),
    });
    const id = scheduled.body.postIds[0];
    const r = await post(`/api/v1/posts/${id}/approval`);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 409, code: 'post_not_editable' });
    expect((await post('/api/v1/posts/pst_missing/approval')).body.code).toBe('post_not_found');
    const none = await get(`/api/v1/posts/${id}/approval`);
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 404, code: 'not_found' });
  });

  test('when the key lacks approval:request, then 403 insufficient_scope', async () => {
    const id = await draft('scoped');
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'no approvals',
      scopes: ['post:draft', 'post:write', 'post:read'],
    });
    const r = await post(`/api/v1/posts/${id}/approval`, undefined, key);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'insufficient_scope' });
  });
});

describe('the approval page', () => {
  test('when a person approves, then the post is scheduled for the next run and published, and the link is spent', async () => {
    const caption = `approve me ${Date.now()}`;
    const { id, approvalUrl } = await requested(caption);
    const page = await browser.newPage();
    await page.goto(approvalUrl);
    expect(await page.getByTestId('caption').textContent()).toBe(caption);
    await page.close();

    expect(await decideInBrowser(approvalUrl, 'Approve')).toMatch(/^Approved/);
    const approval = (await get(`/api/v1/posts/${id}/approval`)).body;
    expect(approval).toMatchObject({ decision: 'approved', approvalUrl: null, decidedAt: expect.any(String) });
    const posted = await waitFor(
      async () => {
        const r = await get(`/api/v1/posts/${id}`);
        return r.body.status === 'posted' ? r.body : undefined;
      },
      { timeoutMs: 15_000, what: 'the approved post to be published' },
    );
    expect(posted.permalink).toEqual(expect.any(String));

    const reopened = await fetch(approvalUrl);
    const html = await reopened.text();
    expect(html).toContain('Approved');
    expect(html).not.toContain('<button');
  });

  test('when a person rejects, then the post is rejected for good; the spent link changes nothing', async () => {
    const { id, approvalUrl } = await requested('reject me', { scheduledTime: inHours(3) });
    expect(await decideInBrowser(approvalUrl, 'Reject')).toMatch(/^Rejected/);
    expect((await get(`/api/v1/posts/${id}`)).body.status).toBe('rejected');

    const url = new URL(approvalUrl);
    const replay = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${url.searchParams.get('token')}&decision=approve`,
    });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('Rejected');
    expect((await get(`/api/v1/posts/${id}`)).body.status).toBe('rejected');
    expect((await post(`/api/v1/posts/${id}/approval`)).body.code).toBe('post_not_editable');
  });

  test('when an approved post had a future scheduledTime, then it keeps that time', async () => {
    const at = inHours(5);
    const { id, approvalUrl } = await requested('later', { scheduledTime: at });
    await decideInBrowser(approvalUrl, 'Approve');
    expect((await get(`/api/v1/posts/${id}`)).body).toMatchObject({ status: 'scheduled', scheduledTime: at });
  });

  test('when the token is forged or belongs to another request, then the page is 404 and a decision changes nothing', async () => {
    const a = await requested('first');
    const b = await requested('second');
    const urlA = new URL(a.approvalUrl);
    const urlB = new URL(b.approvalUrl);
    const swapped = `${urlA.origin}${urlA.pathname}?token=${urlB.searchParams.get('token')}`;
    expect((await fetch(swapped)).status).toBe(404);
    expect((await fetch(`${urlA.origin}${urlA.pathname}?token=forged`)).status).toBe(404);
    expect((await fetch(`${urlA.origin}${urlA.pathname}`)).status).toBe(404);
    const forged = await fetch(`${urlA.origin}${urlA.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=forged&decision=approve',
    });
    expect(forged.status).toBe(404);
    expect((await get(`/api/v1/posts/${a.id}`)).body.status).toBe('pending_approval');
  });

  test('when the form is posted from another site, then 403 and nothing changes', async () => {
    const { id, approvalUrl } = await requested('csrf');
    const url = new URL(approvalUrl);
    const r = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: `token=${url.searchParams.get('token')}&decision=approve`,
    });
    expect(r.status).toBe(403);
    expect((await get(`/api/v1/posts/${id}`)).body.status).toBe('pending_approval');
  });

  test('when the page is served, then it is not cached, not framed and sends no referrer to other sites', async () => {
    const { approvalUrl } = await requested('headers');
    const r = await fetch(approvalUrl);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('referrer-policy')).toBe('same-origin');
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('when a post awaiting approval is cancelled, then the link shows it was cancelled and the approval says so', async () => {
    const { id, approvalUrl } = await requested('cancel me');
    expect((await api(system, `/api/v1/posts/${id}`, { method: 'DELETE', key: account.apiKey })).body.status).toBe(
      'cancelled',
    );
    expect(await (await fetch(approvalUrl)).text()).toContain('cancelled');
    expect((await get(`/api/v1/posts/${id}/approval`)).body).toMatchObject({
      status: 'cancelled',
      decision: 'cancelled',
      approvalUrl: null,
    });
  });
});
