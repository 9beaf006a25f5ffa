import { chromium, type Browser } from 'playwright-core';
import { createTestEnv, type SeededAccount, type TestEnv, testServers } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, newConnectUrl, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let browser: Browser;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_masto_browser');
  [system, browser] = await Promise.all([
    startSystem(env),
    chromium.launch({
      executablePath: testServers.chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }),
  ]);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

describe('connecting Mastodon in a browser', () => {
  test("when a person types their server on the handoff page and approves on it, then the page's policy lets the form lead there and the profile is connected", async () => {
    await sandboxControl(system, 'POST', '/users', {
      platform: 'mastodon',
      handle: 'browser_toot',
      instance: 'toot.example',
    });
    const link = await newConnectUrl(system, account.apiKey, 'mastodon');
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });

    await page.goto(link.connectUrl);
    await page.getByLabel('Your Mastodon server').fill('toot.example');
    await page.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await page.getByRole('button', { name: 'Authorize as @browser_toot' }).click();
    await page.getByRole('heading', { name: 'Mastodon connected' }).waitFor();
    const body = await page.textContent('body');
    await context.close();

    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const profile = (await api(system, '/api/v1/connections', { key: account.apiKey })).body.accounts.find(
      (a: { id: string }) => a.id === state.body.profileId,
    );
    expect(blocked).toEqual([]);
    expect(body).toContain('browser_toot@toot.example');
    expect(profile).toMatchObject({
      platform: 'mastodon',
      status: 'active',
      handle: 'browser_toot@toot.example',
      profileUrl: 'https://toot.example/@browser_toot',
    });
  });
});
