import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { connectSandboxProfile, createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { startSystem, type RunningSystem } from '../support/system';

const ARTIFACTS = join(__dirname, '..', '..', '..', 'test-artifacts');

let env: TestEnv;
let system: RunningSystem;
let browser: Browser;

beforeAll(async () => {
  env = await createTestEnv('auth_browser');
  system = await startSystem(env);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

const email = () => `browser-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

async function api(key: string, path: string, body?: unknown) {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function signUp(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto(`${system.baseUrl}/signup`);
  await page.fill('#email', email());
  await page.fill('#password', 'a long enough password');
  await page.click('button[type=submit]');
  await page.waitForURL(`${system.baseUrl}/settings`);
  return { page, accountId: (await page.textContent('#account-id'))! };
}

test('when a person signs up, creates a key, uses it and revokes it in Chromium, then the key publishes until revoked and then answers 401 invalid_api_key', async () => {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.baseUrl });
  const { page, accountId } = await signUp(context);
  expect(accountId).toMatch(/^acc_/);
  const profile = await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    accountId,
    'threads',
    `browser_${accountId.slice(-6).toLowerCase()}`,
  );
  await page.reload();

  await page.fill('#key-name', 'publishing bot');
  await page.check('input[name=scopes][value="post:write"]');
  await page.check('input[name=scopes][value="post:read"]');
  await page.check('input[name=restriction][value=list]');
  await page.check(`input[name=profileIds][value="${profile.id}"]`);
  await page.selectOption('#expires', '30');
  await page.click('form[action="/settings/keys"] button[type=submit]');

  const key = await page.inputValue('#new-key');
  expect(key).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
  await page.click('button[data-copy="new-key"]');
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('button[data-copy]').textContent === 'Copied',
  );
  expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(key);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'settings-new-key.png'), fullPage: true });

  const created = await api(key, '/api/v1/publish', {
    platforms: ['threads'],
    caption: 'sent with a key made in settings',
  });
  expect(created.status).toBe(201);
  const post = await api(key, `/api/v1/posts/${created.body.postIds[0]}`);
  expect(post.status).toBe(200);
  expect(post.body.profileIds).toEqual([profile.id]);

  await page.goto(`${system.baseUrl}/settings`);
  const row = page.locator('tr', { hasText: 'publishing bot' });
  expect(await row.locator('td.status').textContent()).toBe('active');
  expect(await row.textContent()).not.toContain('never');
  expect(await page.content()).not.toContain(key);
  await row.locator('button', { hasText: 'Revoke' }).click();
  await page.waitForURL(/\/settings\?revoked=key_/);
  expect(await page.locator('tr', { hasText: 'publishing bot' }).locator('td.status').textContent()).toBe('revoked');

  const refused = await waitFor(
    async () => {
      const r = await api(key, `/api/v1/posts/${created.body.postIds[0]}`);
      return r.status === 401 ? r : undefined;
    },
    { timeoutMs: 1000, intervalMs: 25, what: 'the revoked key to be refused' },
  );
  expect(refused.body).toEqual({ error: expect.any(String), code: 'invalid_api_key' });
  await context.close();
});

test('when JavaScript is off, then signing up, creating a key, reading it and signing out still work', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const { page } = await signUp(context);
  await page.fill('#key-name', 'no script');
  await page.click('form[action="/settings/keys"] button[type=submit]');
  const key = await page.inputValue('#new-key');
  expect(key).toMatch(/^sk_live_/);
  expect(await page.isVisible('button[data-copy="new-key"]')).toBe(false);
  expect((await api(key, '/api/v1/posts/pst_missing')).body.code).toBe('post_not_found');
  await page.click('header button[type=submit]');
  await page.waitForURL(/\/signin\?signedout/);
  expect(await page.textContent('[role=status]')).toContain('signed out');
  await page.goto(`${system.baseUrl}/settings`);
  expect(page.url()).toBe(`${system.baseUrl}/signin?next=%2Fsettings`);
  await context.close();
});
