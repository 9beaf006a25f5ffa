import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, FAST_PUBLISHER_ENV, type SeededAccount, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { newConnectUrl, platformUser } from '../support/handoff';
import { api, endedPost } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * "Sign in with Bluesky" against the sandbox's atproto OAuth server (PAR, PKCE, DPoP): the profile
 * connects through the sandbox's consent page and publishes with DPoP-bound calls to the PDS its
 * DID document names.
 */
let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let browser: Browser;

beforeAll(async () => {
  env = await createTestEnv('pub_bsky_oauth');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: [] });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

interface Received {
  method: string;
  path: string;
  authScheme: string | null;
  headers: Record<string, string>;
}

const received = async (): Promise<Received[]> =>
  (await (await fetch(`${system.sandboxUrl}/__sandbox/requests?platform=bluesky`)).json()) as Received[];

describe('Bluesky connected through OAuth, through the whole system', () => {
  test('when a person signs in with Bluesky and a post is published, then the sandbox saw PAR, the token request and DPoP-bound writes', async () => {
    await platformUser(system, 'bluesky', 'oauth_sky');
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const page = await browser.newPage();
    try {
      await page.goto(link.connectUrl);
      await page.locator('#handle').fill('oauth-sky.bsky.social');
      await page.getByRole('button', { name: 'Sign in with Bluesky' }).click();
      await page.getByLabel('@oauth_sky').check();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Bluesky connected' }).waitFor();
    } finally {
      await page.close();
    }
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const creds = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId: state.body.profileId as string,
      accountId: account.accountId,
    });
    expect(creds).toMatchObject({
      platform: 'bluesky',
      platformUserId: expect.stringMatching(/^did:plc:/),
      serviceUrl: `${system.sandboxUrl}/bluesky`,
      dpopJwk: expect.objectContaining({ kty: 'EC', crv: 'P-256' }),
    });

    const caption = `Signed in with Bluesky 🦋 ${Date.now()}`;
    const created = await api(system, '/api/v1/publish', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['bluesky'], caption },
    });
    expect(created.status).toBe(201);
    const post = await endedPost(system, account.apiKey, (created.body.postIds as string[])[0]);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });

    const calls = await received();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/oauth/par') && c.headers.dpop)).toBe(true);
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/oauth/token') && c.headers.dpop)).toBe(true);
    const writes = calls.filter((c) => c.path.endsWith('/xrpc/com.atproto.repo.createRecord'));
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((c) => c.authScheme === 'DPoP' && Boolean(c.headers.dpop))).toBe(true);
  });
});
