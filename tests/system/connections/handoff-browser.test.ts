import { Client } from 'pg';
import type { Browser } from 'playwright-core';
import { PLATFORMS } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { startSystem, type RunningSystem } from '../support/system';
import {
  api,
  hiddenFields,
  issuedTokens,
  newConnectUrl,
  platformUser,
  sandboxControl,
  Visitor,
} from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let browser: Browser;
let account: SeededAccount;
/** Tokens the platforms know, including the Page tokens of the sandbox's Facebook Pages. */
const platformTokens: string[] = [];

beforeAll(async () => {
  env = await createTestEnv('conn_browser');
  [system, browser] = await Promise.all([startSystem(env), launchChromium()]);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

const TITLES = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  linkedin: 'LinkedIn',
  x: 'X',
  pinterest: 'Pinterest',
} as const;

describe('connecting in a browser', () => {
  test.each(PLATFORMS.filter((p) => p !== 'bluesky' && p !== 'mastodon').map((p) => [p]))(
    'when a person approves %s on the sandbox consent page, then the profile is connected to the account',
    async (platform) => {
      const user = await platformUser(system, platform, `${platform}_brand`);
      platformTokens.push(user.accessToken);
      const link = await newConnectUrl(system, account.apiKey, platform);
      const context = await browser.newContext();
      const page = await context.newPage();

      await page.goto(link.connectUrl);
      await page.getByRole('button', { name: `Continue to ${TITLES[platform]}` }).click();
      await page.getByLabel(`@${user.handle}`).check();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: `${TITLES[platform]} connected` }).waitFor();
      const body = await page.textContent('body');
      await context.close();

      const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
      const list = await api(system, '/api/v1/connections', { key: account.apiKey });
      const profile = list.body.accounts.find((a: { id: string }) => a.id === state.body.profileId);
      expect(body).toContain(
        `@${platform === 'youtube' ? user.handle.toLowerCase() : user.handle} is connected to Postbus`,
      );
      expect(state.body.status).toBe('completed');
      expect(profile).toMatchObject({
        platform,
        status: 'active',
        // X profiles live at https://x.com/{username}.
        profileUrl: expect.stringMatching(/^https:\/\/(www\.|x\.com\/)/),
      });
      expect(profile.handle.toLowerCase()).toBe(user.handle.toLowerCase());
    },
  );

  test('when a person grants two Facebook Pages in the browser, then they choose the Page and it becomes the profile', async () => {
    const first = await platformUser(system, 'facebook', 'shop_one');
    const second = await platformUser(system, 'facebook', 'shop_two');
    platformTokens.push(first.accessToken, second.accessToken);
    const link = await newConnectUrl(system, account.apiKey, 'facebook');
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(link.connectUrl);
    await page.getByRole('button', { name: 'Continue to Facebook' }).click();
    for (const label of await page.getByRole('checkbox').all()) await label.uncheck();
    await page.getByLabel('@shop_one').check();
    await page.getByLabel('@shop_two').check();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Choose the Facebook Page to connect' }).waitFor();
    await page.getByLabel('shop_two').check();
    await page.getByRole('button', { name: 'Connect this Page' }).click();
    await page.getByRole('heading', { name: 'Facebook connected' }).waitFor();
    await context.close();

    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });
    expect(list.body.accounts.find((a: { id: string }) => a.id === state.body.profileId)).toMatchObject({
      platform: 'facebook',
      handle: 'shop_two',
    });
  });
});

describe('connecting Bluesky with an app password', () => {
  test('when a person enters the handle and an app password on the handoff page, then the profile is connected with its DID and a session, and the password is kept nowhere', async () => {
    const user = await platformUser(system, 'bluesky', 'studio_sky');
    platformTokens.push(user.accessToken);
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(link.connectUrl);
    await page.getByLabel('Handle or DID').fill('studio-sky.bsky.social');
    await page.getByLabel('App password').fill(user.accessToken);
    await page.getByRole('button', { name: 'Connect Bluesky' }).click();
    await page.getByRole('heading', { name: 'Bluesky connected' }).waitFor();
    const body = await page.textContent('body');
    await context.close();

    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });
    const profile = list.body.accounts.find((a: { id: string }) => a.id === state.body.profileId);
    const sessions = await sandboxControl(system, 'GET', '/requests?platform=bluesky');
    expect(body).toContain('@studio-sky.bsky.social is connected to Postbus');
    expect(state.body.status).toBe('completed');
    expect(profile).toMatchObject({
      platform: 'bluesky',
      status: 'active',
      handle: 'studio-sky.bsky.social',
      profileUrl: 'https://bsky.app/profile/studio-sky.bsky.social',
    });
    expect(sessions.body.map((r: { path: string; body: unknown }) => [r.path, r.body])).toEqual([
      [
        '/bluesky/xrpc/com.atproto.server.createSession',
        { identifier: 'studio-sky.bsky.social', password: user.accessToken },
      ],
    ]);
  });

  test("when the app password is wrong, then the request fails with Bluesky's reason and no profile is stored", async () => {
    await platformUser(system, 'bluesky', 'wrong_pass');
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);
    const answer = await visitor.post(link.connectUrl, {
      ...hiddenFields(landing.html),
      identifier: 'wrong-pass.bsky.social',
      appPassword: 'aaaa-bbbb-cccc-dddd',
    });

    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('The Bluesky connection failed');
    expect(state.body).toMatchObject({ status: 'failed', profileId: null });
    expect(state.body.failureReason).toMatch(/Invalid identifier or password/);
  });

  test('when the handle is not a handle or DID, then the form is shown again and the link stays usable', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);
    const answer = await visitor.post(link.connectUrl, {
      ...hiddenFields(landing.html),
      identifier: 'not a handle',
      appPassword: 'x',
    });

    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('Enter the account’s handle');
    expect(state.body.status).toBe('pending');
  });
});

describe('tokens at rest', () => {
  test('when every platform is connected, then no table of the database holds a platform token in clear text', async () => {
    const tokens = [...(await issuedTokens(system)), ...platformTokens];
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      const tables = await db.query(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      let dump = '';
      for (const { table_schema, table_name } of tables.rows) {
        const rows = await db.query(`SELECT t::text AS row FROM "${table_schema}"."${table_name}" t`);
        dump += rows.rows.map((r) => r.row).join('\n');
      }
      const sealed = await db.query('SELECT access_token_enc, refresh_token_enc FROM connections.profiles');

      expect(tokens.length).toBeGreaterThan(10);
      expect(tables.rows.map((r) => `${r.table_schema}.${r.table_name}`)).toContain('connections.profiles');
      for (const token of tokens) expect(dump.includes(token)).toBe(false);
      expect(sealed.rows.length).toBeGreaterThanOrEqual(6);
      for (const row of sealed.rows) {
        expect(row.access_token_enc).toMatch(/^v2:dev:[^:]+:[^:]+:[^:]+$/);
        if (row.refresh_token_enc !== null) expect(row.refresh_token_enc).toMatch(/^v2:dev:[^:]+:[^:]+:[^:]+$/);
      }
    } finally {
      await db.end();
    }
  });
});
