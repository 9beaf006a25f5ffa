import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { newDpopKey } from '@postbus/platforms';
import { FAST_PUBLISHER_ENV, receivedBy } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { signInWithBluesky } from '../support/bluesky-sign-in';
import { api, endedPost } from '../support/posts-api';
import { useSystem } from '../support/use-system';

/**
 * Postbus as a confidential atproto OAuth client (BLUESKY_OAUTH_CLIENT_KEY): its metadata document
 * and key set under {base_url}, read by the sandbox's authorization server, which then takes only
 * token requests carrying an assertion signed with that key.
 */
const key = { ...newDpopKey(), kid: 'postbus-test-1' };
const ctx = useSystem('conn_bsky_meta', {
  env: {
    ...FAST_PUBLISHER_ENV,
    BLUESKY_OAUTH_CLIENT_KEY: JSON.stringify(key),
    SANDBOX_BLUESKY_LOOPBACK_CLIENT_METADATA: 'true',
  },
  account: { platforms: [] },
});
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('Postbus as a confidential Bluesky OAuth client', () => {
  test('when an authorization server reads the client ID, then the gateway serves the metadata document and the public key set', async () => {
    const clientId = `${ctx.system.baseUrl}/oauth/bluesky/client-metadata.json`;
    const metadata = await fetch(clientId);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      client_id: clientId,
      redirect_uris: [`${ctx.system.baseUrl}/oauth/callback/bluesky`],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${ctx.system.baseUrl}/oauth/bluesky/jwks.json`,
      dpop_bound_access_tokens: true,
    });
    const jwks = await fetch(`${ctx.system.baseUrl}/oauth/bluesky/jwks.json`);
    const body = (await jwks.json()) as { keys: Record<string, string>[] };
    expect(body.keys).toEqual([
      { kty: 'EC', crv: 'P-256', x: key.x, y: key.y, kid: key.kid, alg: 'ES256', use: 'sig' },
    ]);
    expect(JSON.stringify(body)).not.toContain(key.d);
  });

  test('when a person signs in with Bluesky, then the code is exchanged with a signed client assertion and the profile publishes', async () => {
    const link = await signInWithBluesky(ctx.system, browser, ctx.account.apiKey, {
      user: 'conf_sky',
      handle: 'conf-sky.bsky.social',
    });
    const calls = await receivedBy({ url: ctx.system.sandboxUrl }, 'bluesky');
    const token = calls.find((c) => c.path.endsWith('/oauth/token'));
    expect(token?.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: `${ctx.system.baseUrl}/oauth/bluesky/client-metadata.json`,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });

    const created = await api(ctx.system, '/api/v1/publish', {
      method: 'POST',
      key: ctx.account.apiKey,
      body: { platforms: ['bluesky'], caption: `Confidential client ${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const post = await endedPost(ctx.system, ctx.account.apiKey, (created.body.postIds as string[])[0]);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    const state = await api(ctx.system, `/api/v1/connections/requests/${link.requestId}`, { key: ctx.account.apiKey });
    const refreshed = await ctx.system.bus.rpc.call(Rpc.connectionsRefreshCredentials, {
      profileId: state.body.profileId as string,
      accountId: ctx.account.accountId,
    });
    expect(refreshed).toMatchObject({ status: 'active', serviceUrl: `${ctx.system.sandboxUrl}/bluesky` });
  });
});
