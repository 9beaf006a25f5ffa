import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { newDpopKey } from '@postbus/platforms';
import { createTestEnv, FAST_PUBLISHER_ENV, type SeededAccount, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { newConnectUrl, platformUser } from '../support/handoff';
import { api, endedPost } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * Postbus as a confidential atproto OAuth client (BLUESKY_OAUTH_CLIENT_KEY): its metadata document
 * and key set under {base_url}, read by the sandbox's authorization server, which then takes only
 * token requests carrying an assertion signed with that key.
 */
let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let browser: Browser;
const key = { ...newDpopKey(), kid: 'postbus-test-1' };

beforeAll(async () => {
  env = await createTestEnv('conn_bsky_meta');
  system = await startSystem(env, {
    ...FAST_PUBLISHER_ENV,
    BLUESKY_OAUTH_CLIENT_KEY: JSON.stringify(key),
    SANDBOX_BLUESKY_LOOPBACK_CLIENT_METADATA: 'true',
  });
  account = await system.seedAccount({ platforms: [] });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
});

describe('Postbus as a confidential Bluesky OAuth client', () => {
  test('when an authorization server reads the client ID, then the gateway serves the metadata document and the public key set', async () => {
    const clientId = `${system.baseUrl}/oauth/bluesky/client-metadata.json`;
    const metadata = await fetch(clientId);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      client_id: clientId,
      redirect_uris: [`${system.baseUrl}/oauth/callback/bluesky`],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${system.baseUrl}/oauth/bluesky/jwks.json`,
      dpop_bound_access_tokens: true,
    });
    const jwks = await fetch(`${system.baseUrl}/oauth/bluesky/jwks.json`);
    const body = (await jwks.json()) as { keys: Record<string, string>[] };
    expect(body.keys).toEqual([
      { kty: 'EC', crv: 'P-256', x: key.x, y: key.y, kid: key.kid, alg: 'ES256', use: 'sig' },
    ]);
    expect(JSON.stringify(body)).not.toContain(key.d);
  });

  test('when a person signs in with Bluesky, then the code is exchanged with a signed client assertion and the profile publishes', async () => {
    await platformUser(system, 'bluesky', 'conf_sky');
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const page = await browser.newPage();
    try {
      await page.goto(link.connectUrl);
      await page.locator('#handle').fill('conf-sky.bsky.social');
      await page.getByRole('button', { name: 'Sign in with Bluesky' }).click();
      await page.getByLabel('@conf_sky').check();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Bluesky connected' }).waitFor();
    } finally {
      await page.close();
    }
    const calls = (await (await fetch(`${system.sandboxUrl}/__sandbox/requests?platform=bluesky`)).json()) as {
      path: string;
      body: Record<string, unknown> | null;
    }[];
    const token = calls.find((c) => c.path.endsWith('/oauth/token'));
    expect(token?.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: `${system.baseUrl}/oauth/bluesky/client-metadata.json`,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });

    const created = await api(system, '/api/v1/publish', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['bluesky'], caption: `Confidential client ${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const post = await endedPost(system, account.apiKey, (created.body.postIds as string[])[0]);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const refreshed = await system.bus.rpc.call(Rpc.connectionsRefreshCredentials, {
      profileId: state.body.profileId as string,
      accountId: account.accountId,
    });
    expect(refreshed).toMatchObject({ status: 'active', serviceUrl: `${system.sandboxUrl}/bluesky` });
  });
});
