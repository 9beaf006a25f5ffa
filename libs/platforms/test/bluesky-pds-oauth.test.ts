import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { aJpeg, testServers } from '@postbus/testing';
import { DpopSigner, newDpopKey } from '../src/bluesky/oauth/dpop';
import {
  finishBlueskyAuthorization,
  loopbackClientId,
  refreshBlueskyOAuth,
  startBlueskyAuthorization,
  type BlueskyOAuthOptions,
  type BlueskyOAuthSession,
} from '../src/bluesky/oauth/client';
import { netFetch } from '../src/bluesky/oauth/net-fetch';
import { createBlueskyPost, getBlueskyPost, newTid, uploadBlueskyBlob } from '../src/bluesky/publish';
import type { BlueskyApiOptions } from '../src/bluesky/api';
import { startReferencePds, type PdsAccount, type ReferencePds } from './support/reference-pds';

/**
 * The whole atproto OAuth flow (https://atproto.com/specs/oauth) against Bluesky's own reference
 * PDS and its authorization server: PAR, the PDS's own sign-in and consent pages in a real browser,
 * the code exchange, DPoP-bound writes that read back as sent, and a single-use refresh.
 */
const SCOPE = 'atproto transition:generic';

let reference: ReferencePds;
let alice: PdsAccount;
let browser: Browser;
let callbackServer: Server;
let callbacks: URLSearchParams[] = [];
let opts: BlueskyOAuthOptions;

beforeAll(async () => {
  reference = await startReferencePds(['alice']);
  [alice] = reference.accounts;
  callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') callbacks.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  opts = {
    access: { allowLoopback: true },
    plcUrl: reference.plcUrl,
    handleResolverUrl: reference.pdsUrl,
    client: { clientId: loopbackClientId(redirectUri, SCOPE), redirectUri, scope: SCOPE },
  };
  browser = await chromium.launch({
    executablePath: testServers.chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
  await reference?.stop();
});

/** Signs in on the authorization server's own pages as the account holder would, and consents. */
async function signInAndConsent(authorizeUrl: string, password: string): Promise<URLSearchParams> {
  callbacks = [];
  const page = await browser.newPage();
  try {
    await page.goto(authorizeUrl);
    await page.locator('input[type="password"]').fill(password);
    await page.locator('button[type="submit"]').first().click();
    await page.getByRole('button', { name: /^(authorize|accept|allow)/i }).click();
    await page.waitForURL((url) => url.pathname === '/callback', { timeout: 30_000 });
  } catch (err) {
    await page.screenshot({ path: '/tmp/bluesky-oauth-failure.png' }).catch(() => undefined);
    throw err;
  } finally {
    await page.close();
  }
  expect(callbacks).toHaveLength(1);
  return callbacks[0];
}

const dpopApi = (s: BlueskyOAuthSession, signer: DpopSigner): BlueskyApiOptions => ({
  serviceUrl: s.pdsUrl,
  accessJwt: s.accessToken,
  dpop: signer,
  fetchImpl: netFetch({ allowLoopback: true }, { maxBytes: 2 * 1024 * 1024 }),
});

describe('signing in with Bluesky through OAuth', () => {
  let session: BlueskyOAuthSession;

  test('when the account holder signs in and consents on the PDS, then the tokens are DPoP-bound and for their DID', async () => {
    const { authorizeUrl, pending } = await startBlueskyAuthorization(opts, `@${alice.handle.toUpperCase()}`);
    expect(pending).toMatchObject({ did: alice.did, handle: alice.handle, pdsUrl: reference.pdsUrl });
    expect(new URL(authorizeUrl).searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const params = await signInAndConsent(authorizeUrl, alice.password);
    expect(params.get('iss')).toBe(pending.issuer);
    session = await finishBlueskyAuthorization(opts, pending, {
      code: params.get('code') ?? undefined,
      state: params.get('state') ?? undefined,
      iss: params.get('iss') ?? undefined,
    });
    expect(session).toMatchObject({ did: alice.did, pdsUrl: reference.pdsUrl, issuer: pending.issuer });
    expect(session.scope).toEqual(expect.arrayContaining(['atproto', 'transition:generic']));
  });

  test('when posting with the DPoP-bound token, then the post and its image read back exactly as sent', async () => {
    const signer = new DpopSigner(session.dpopJwk);
    const api = dpopApi(session, signer);
    const image = aJpeg(4000);
    const blob = await uploadBlueskyBlob(api, image, 'image/jpeg');
    const rkey = newTid();
    const text = 'Signed in with OAuth 🔐';
    const image1 = { blob, alt: 'a test image', aspectRatio: { width: 4, height: 3 } };
    const created = await createBlueskyPost(api, session.did, rkey, {
      text,
      images: [image1],
      langs: ['en'],
      createdAt: '2027-01-02T03:04:05.000Z',
    });
    const stored = await getBlueskyPost(api, session.did, rkey);
    expect(stored).toEqual({
      uri: created.uri,
      cid: created.cid,
      value: {
        $type: 'app.bsky.feed.post',
        text,
        langs: ['en'],
        createdAt: '2027-01-02T03:04:05.000Z',
        embed: {
          $type: 'app.bsky.embed.images',
          images: [{ image: blob, alt: image1.alt, aspectRatio: image1.aspectRatio }],
        },
      },
    });
    const res = await fetch(
      `${reference.pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${session.did}&cid=${blob.ref.$link}`,
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
    // The PDS asked for its own nonce once, and the signer kept it.
    expect(signer.nonceFor(session.pdsUrl)).toEqual(expect.any(String));
  });

  test('when the same token is sent as a Bearer token or with another DPoP key, then the PDS refuses it', async () => {
    const bearer = { serviceUrl: session.pdsUrl, accessJwt: session.accessToken };
    await expect(createBlueskyPost(bearer, session.did, newTid(), { text: 'x' })).rejects.toMatchObject({
      tokenRejected: true,
    });
    const otherKey = new DpopSigner(newDpopKey());
    await expect(
      createBlueskyPost(dpopApi(session, otherKey), session.did, newTid(), { text: 'x' }),
    ).rejects.toMatchObject({
      tokenRejected: true,
    });
  });

  test('when the session is refreshed, then the new token writes and the old refresh token is refused', async () => {
    const refreshed = await refreshBlueskyOAuth(opts, session);
    expect(refreshed.refreshToken).not.toBe(session.refreshToken);
    expect(refreshed.accessToken).not.toBe(session.accessToken);
    const rkey = newTid();
    const created = await createBlueskyPost(
      dpopApi(refreshed, new DpopSigner(refreshed.dpopJwk)),
      refreshed.did,
      rkey,
      {
        text: 'after a refresh',
        createdAt: '2027-01-02T03:04:06.000Z',
      },
    );
    expect(created.uri).toBe(`at://${alice.did}/app.bsky.feed.post/${rkey}`);
    const reused = await refreshBlueskyOAuth(opts, session).catch((e: unknown) => e);
    expect(reused).toMatchObject({ code: 'invalid_grant', tokenRefused: true, transient: false });
  });
});
