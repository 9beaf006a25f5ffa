import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, FAST_PUBLISHER_ENV, type SeededAccount, type TestEnv } from '@postbus/testing';
import {
  startReferencePds,
  type PdsAccount,
  type ReferencePds,
} from '../../../libs/platforms/test/support/reference-pds';
import { launchChromium } from '../support/browser';
import { newConnectUrl } from '../support/handoff';
import { api, endedPost } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * "Sign in with Bluesky" (atproto OAuth: PAR, PKCE, DPoP) through the whole system, against
 * Bluesky's own reference PDS and its authorization server: Postbus is a loopback development
 * client there (PUBLIC_BASE_URL on 127.0.0.1), the person signs in and consents on the PDS's own
 * pages, and the profile publishes to that PDS with DPoP-bound tokens.
 */
let reference: ReferencePds;
let carol: PdsAccount;
let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let browser: Browser;
let profileId: string;

beforeAll(async () => {
  reference = await startReferencePds(['carol']);
  [carol] = reference.accounts;
  env = await createTestEnv('conn_bsky_oauth');
  system = await startSystem(env, {
    ...FAST_PUBLISHER_ENV,
    TOKEN_REFRESH_DEDUP_MS: '0',
    BLUESKY_SERVICE_URL: reference.pdsUrl,
    BLUESKY_PLC_URL: reference.plcUrl,
  });
  account = await system.seedAccount({ platforms: [] });
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
  await reference?.stop();
});

const credentials = () =>
  system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });

async function publish(caption: string): Promise<{ status: string; permalink: string; failedReason: string | null }> {
  const created = await api(system, '/api/v1/publish', {
    method: 'POST',
    key: account.apiKey,
    body: { platforms: ['bluesky'], caption },
  });
  expect(created.status).toBe(201);
  return endedPost(system, account.apiKey, (created.body.postIds as string[])[0]);
}

/** The record a bsky.app permalink names, as the PDS serves it. */
async function recordOf(permalink: string): Promise<Record<string, unknown>> {
  const rkey = permalink.split('/').pop()!;
  const res = await fetch(
    `${reference.pdsUrl}/xrpc/com.atproto.repo.getRecord?repo=${carol.did}&collection=app.bsky.feed.post&rkey=${rkey}`,
  );
  return ((await res.json()) as { value: Record<string, unknown> }).value;
}

describe('a Bluesky profile connected through OAuth', () => {
  test("when the person signs in with Bluesky on the PDS's own pages, then the profile holds DPoP-bound tokens for their DID and PDS", async () => {
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const page = await browser.newPage();
    try {
      await page.goto(link.connectUrl);
      await page.locator('#handle').fill(carol.handle);
      await page.getByRole('button', { name: 'Sign in with Bluesky' }).click();
      await page.waitForURL((url) => url.origin === new URL(reference.pdsUrl).origin);
      await page.locator('input[type="password"]').fill(carol.password);
      await page.locator('button[type="submit"]').first().click();
      await page.getByRole('button', { name: /^(authorize|accept|allow)/i }).click();
      await page.waitForURL((url) => url.pathname === '/oauth/callback/bluesky');
      expect(await page.locator('h1').textContent()).toBe('Bluesky connected');
    } finally {
      await page.close();
    }
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    profileId = state.body.profileId as string;
    const creds = await credentials();
    expect(creds).toMatchObject({
      platform: 'bluesky',
      platformUserId: carol.did,
      handle: carol.handle,
      status: 'active',
      serviceUrl: reference.pdsUrl,
      dpopJwk: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), d: expect.any(String) },
    });
    // The token is bound to the session's key: as a plain Bearer token the PDS refuses it.
    const bearer = await fetch(`${reference.pdsUrl}/xrpc/com.atproto.server.getSession`, {
      headers: { authorization: `Bearer ${creds.accessToken}` },
    });
    expect(bearer.ok).toBe(false);
  });

  test('when a post is published to the profile, then the PDS holds the record as sent', async () => {
    const caption = `Through OAuth 🦋 ${Date.now()}`;
    const post = await publish(caption);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    expect(await recordOf(post.permalink)).toMatchObject({ $type: 'app.bsky.feed.post', text: caption });
  });

  test('when the credentials are refreshed, then the rotated tokens publish and keep the same DPoP key', async () => {
    const before = await credentials();
    const refreshed = await system.bus.rpc.call(Rpc.connectionsRefreshCredentials, {
      profileId,
      accountId: account.accountId,
    });
    expect(refreshed.accessToken).not.toBe(before.accessToken);
    expect(refreshed.dpopJwk).toEqual(before.dpopJwk);
    const caption = `After a refresh ${Date.now()}`;
    const post = await publish(caption);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    expect(await recordOf(post.permalink)).toMatchObject({ text: caption });
  });
});
