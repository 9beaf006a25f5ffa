import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { FAST_PUBLISHER_ENV, receivedBy } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { signInWithBluesky } from '../support/bluesky-sign-in';
import { api, endedPost } from '../support/posts-api';
import { useSystem } from '../support/use-system';

/**
 * "Sign in with Bluesky" against the sandbox's atproto OAuth server (PAR, PKCE, DPoP): the profile
 * connects through the sandbox's consent page and publishes with DPoP-bound calls to the PDS its
 * DID document names.
 */
const ctx = useSystem('pub_bsky_oauth', { env: FAST_PUBLISHER_ENV, account: { platforms: [] } });
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const received = () => receivedBy({ url: ctx.system.sandboxUrl }, 'bluesky');

describe('Bluesky connected through OAuth, through the whole system', () => {
  test('when a person signs in with Bluesky and a post is published, then the sandbox saw PAR, the token request and DPoP-bound writes', async () => {
    const link = await signInWithBluesky(ctx.system, browser, ctx.account.apiKey, {
      user: 'oauth_sky',
      handle: 'oauth-sky.bsky.social',
    });
    const state = await api(ctx.system, `/api/v1/connections/requests/${link.requestId}`, { key: ctx.account.apiKey });
    const creds = await ctx.system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId: state.body.profileId as string,
      accountId: ctx.account.accountId,
    });
    expect(creds).toMatchObject({
      platform: 'bluesky',
      platformUserId: expect.stringMatching(/^did:plc:/),
      serviceUrl: `${ctx.system.sandboxUrl}/bluesky`,
      dpopJwk: expect.objectContaining({ kty: 'EC', crv: 'P-256' }),
    });

    const caption = `Signed in with Bluesky 🦋 ${Date.now()}`;
    const created = await api(ctx.system, '/api/v1/publish', {
      method: 'POST',
      key: ctx.account.apiKey,
      body: { platforms: ['bluesky'], caption },
    });
    expect(created.status).toBe(201);
    const post = await endedPost(ctx.system, ctx.account.apiKey, (created.body.postIds as string[])[0]);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });

    const calls = await received();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/oauth/par') && c.headers.dpop)).toBe(true);
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/oauth/token') && c.headers.dpop)).toBe(true);
    const writes = calls.filter((c) => c.path.endsWith('/xrpc/com.atproto.repo.createRecord'));
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((c) => c.authScheme === 'DPoP' && Boolean(c.headers.dpop))).toBe(true);
  });
});
