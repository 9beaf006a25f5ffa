import { startSandbox, type RunningSandbox } from '../../../services/sandbox/src/main';
import {
  OAuthError,
  createPkcePair,
  facebookOAuth,
  instagramOAuth,
  threadsOAuth,
  tiktokOAuth,
  youtubeOAuth,
  type PlatformOAuthClient,
} from '../src';

/** The platform OAuth clients against the sandbox's authorization servers, as connections uses them. */

let sandbox: RunningSandbox;
const REDIRECT = 'http://127.0.0.1:1/oauth/callback/x';
const app = { clientId: 'postbus-test', clientSecret: 'secret' };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  // These tests refresh tokens just issued; the 24-hour minimum age of Instagram and Threads
  // refreshes has its own tests (services/sandbox/test/platform-rules.test.ts).
  for (const platform of ['instagram', 'threads']) {
    const res = await fetch(`${sandbox.url}/__sandbox/oauth/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform, refreshMinAgeSec: 0 }),
    });
    if (!res.ok) throw new Error(`sandbox settings: ${res.status} ${await res.text()}`);
  }
});
afterAll(() => sandbox.close());

function clients(base = sandbox.url): Record<string, PlatformOAuthClient> {
  return {
    instagram: instagramOAuth({
      ...app,
      authorizeUrl: `${base}/instagram/oauth/authorize`,
      tokenUrl: `${base}/instagram/oauth/access_token`,
      graphUrl: `${base}/instagram`,
    }),
    facebook: facebookOAuth({ ...app, authorizeUrl: `${base}/facebook/dialog/oauth`, graphUrl: `${base}/facebook` }),
    threads: threadsOAuth({
      ...app,
      authorizeUrl: `${base}/threads/oauth/authorize`,
      graphUrl: `${base}/threads`,
      apiUrl: `${base}/threads/v1.0`,
    }),
    tiktok: tiktokOAuth({ ...app, authorizeUrl: `${base}/tiktok/v2/auth/authorize/`, apiUrl: `${base}/tiktok` }),
    youtube: youtubeOAuth({
      ...app,
      authorizeUrl: `${base}/google/o/oauth2/v2/auth`,
      tokenUrl: `${base}/google/token`,
      apiUrl: `${base}/youtube/v3`,
    }),
  };
}

async function sandboxUser(platform: string, handle: string): Promise<{ userId: string; accessToken: string }> {
  const res = await fetch(`${sandbox.url}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, handle }),
  });
  return (await res.json()) as { userId: string; accessToken: string };
}

/** Approves the consent page for `accounts` and answers the code the platform redirects back with. */
async function approve(authorizeUrl: string, accounts: string[]): Promise<string> {
  const html = await (await fetch(authorizeUrl)).text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    form.set(m[1], m[2].replace(/&amp;/g, '&'));
  for (const a of accounts) form.append('account', a);
  form.set('decision', 'approve');
  const res = await fetch(authorizeUrl, { method: 'POST', body: form, redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

async function connect(client: PlatformOAuthClient, accounts: string[]) {
  const pkce = client.pkce ? createPkcePair() : undefined;
  const url = client.authorizeUrl({ redirectUri: REDIRECT, state: 'st', codeChallenge: pkce?.challenge });
  const code = await approve(url, accounts);
  const tokens = await client.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce?.verifier });
  return { url: new URL(url), tokens, accounts: await client.listAccounts(tokens) };
}

async function errorOf(p: Promise<unknown>): Promise<OAuthError> {
  try {
    await p;
  } catch (err) {
    return err as OAuthError;
  }
  throw new Error('expected a failure');
}

describe('a whole grant, platform by platform', () => {
  test.each(['instagram', 'threads', 'tiktok', 'youtube'])(
    'when a %s account consents, then the client reads it and can refresh its token',
    async (platform) => {
      const user = await sandboxUser(platform, `${platform}_fan`);
      const client = clients()[platform];

      const { tokens, accounts } = await connect(client, [user.userId]);
      const refreshed = await client.refresh(accounts[0].credentials);

      expect(accounts).toHaveLength(1);
      expect(accounts[0]).toMatchObject({
        platformUserId: user.userId,
        profileUrl: expect.stringMatching(/^https:\/\//),
      });
      expect(accounts[0].handle.toLowerCase()).toBe(`${platform}_fan`);
      expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now());
      expect(refreshed.accessToken).not.toBe(tokens.accessToken);
      expect(refreshed.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    },
  );

  test('when the authorize links are built, then PKCE (S256) goes only to TikTok and YouTube, and each carries the state', () => {
    const all = clients();
    const urls = Object.fromEntries(
      Object.entries(all).map(([p, c]) => [
        p,
        new URL(c.authorizeUrl({ redirectUri: REDIRECT, state: 'st-9', codeChallenge: c.pkce ? 'chal' : undefined })),
      ]),
    );

    expect(
      Object.entries(all)
        .filter(([, c]) => c.pkce)
        .map(([p]) => p),
    ).toEqual(['tiktok', 'youtube']);
    expect(urls.tiktok.searchParams.get('client_key')).toBe(app.clientId);
    expect(urls.tiktok.searchParams.get('code_challenge_method')).toBe('S256');
    expect(urls.youtube.searchParams.get('access_type')).toBe('offline');
    expect(urls.youtube.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/youtube.upload');
    for (const u of Object.values(urls)) {
      expect(u.searchParams.get('state')).toBe('st-9');
      expect(u.searchParams.get('redirect_uri')).toBe(REDIRECT);
    }
  });

  test('when the authorize links are built, then each asks for publishing and for what auto-reply and insights need on that platform', () => {
    const all = clients();
    const scopes = (p: keyof typeof all) =>
      new URL(
        all[p].authorizeUrl({ redirectUri: REDIRECT, state: 's', codeChallenge: all[p].pkce ? 'chal' : undefined }),
      ).searchParams
        .get('scope')!
        .split(/[ ,]/);
    expect(scopes('instagram')).toEqual(
      expect.arrayContaining([
        'instagram_business_content_publish',
        'instagram_business_manage_comments',
        'instagram_business_manage_insights',
      ]),
    );
    expect(scopes('facebook')).toEqual(
      expect.arrayContaining(['pages_manage_posts', 'pages_manage_engagement', 'read_insights']),
    );
    expect(scopes('facebook')).not.toContain('publish_video'); // Live Video's permission, not needed for Page videos or reels
    expect(scopes('threads')).toEqual(
      expect.arrayContaining([
        'threads_content_publish',
        'threads_read_replies',
        'threads_manage_replies',
        'threads_manage_insights',
      ]),
    );
    expect(scopes('tiktok')).toEqual(expect.arrayContaining(['video.publish', 'video.list']));
    expect(scopes('youtube')).toEqual(
      expect.arrayContaining([
        'https://www.googleapis.com/auth/youtube.upload',
        'https://www.googleapis.com/auth/youtube.readonly',
      ]),
    );
  });

  test('when a TikTok token is refreshed, then the rotated refresh token comes back; a YouTube refresh keeps the stored one', async () => {
    const tiktok = await connect(clients().tiktok, [(await sandboxUser('tiktok', 'tk')).userId]);
    const youtube = await connect(clients().youtube, [(await sandboxUser('youtube', 'yt')).userId]);

    const tk = await clients().tiktok.refresh(tiktok.accounts[0].credentials);
    const yt = await clients().youtube.refresh(youtube.accounts[0].credentials);

    expect(tk.refreshToken).toEqual(expect.any(String));
    expect(tk.refreshToken).not.toBe(tiktok.tokens.refreshToken);
    expect(yt.refreshToken).toBeNull();
  });

  test('when two Facebook Pages are granted, then both are accounts with their Page tokens, and a refresh reads the Page token again', async () => {
    const a = await sandboxUser('facebook', 'bakery');
    const b = await sandboxUser('facebook', 'cafe');
    const { tokens, accounts } = await connect(clients().facebook, [a.userId, b.userId]);

    const refreshed = await clients().facebook.refresh(accounts[1].credentials);

    expect(accounts.map((p) => [p.platformUserId, p.handle, p.credentials.accessToken])).toEqual([
      [a.userId, 'bakery', a.accessToken],
      [b.userId, 'cafe', b.accessToken],
    ]);
    expect(accounts[0].credentials).toMatchObject({ refreshToken: tokens.accessToken, expiresAt: null });
    expect(refreshed).toEqual({ accessToken: b.accessToken, refreshToken: null, expiresAt: null });
  });
});

describe('how failures are told apart', () => {
  test.each(['instagram', 'threads', 'tiktok', 'youtube', 'facebook'])(
    'when the %s account was revoked, then the refresh is a definitive refusal',
    async (platform) => {
      const user = await sandboxUser(platform, `${platform}_gone`);
      const { accounts } = await connect(clients()[platform], [user.userId]);
      await fetch(`${sandbox.url}/__sandbox/users/${user.userId}/revoke`, { method: 'POST' });

      const err = await errorOf(clients()[platform].refresh(accounts[0].credentials));

      expect(err).toBeInstanceOf(OAuthError);
      expect(err).toMatchObject({ tokenRefused: true, transient: false, platform });
      expect(err.message).toMatch(/reconnected/);
    },
  );

  test('when the token endpoint answers 503, then the refresh failure is transient and not a refusal', async () => {
    const { accounts } = await connect(clients().youtube, [(await sandboxUser('youtube', 'busy')).userId]);
    await fetch(`${sandbox.url}/__sandbox/oauth/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'youtube', status: 503 }),
    });

    const err = await errorOf(clients().youtube.refresh(accounts[0].credentials));

    expect(err).toMatchObject({ transient: true, tokenRefused: false, status: 503 });
  });

  test('when the platform cannot be reached, then the failure is transient', async () => {
    const closed = await startSandbox({ port: 0 });
    await closed.close();

    const err = await errorOf(
      clients(closed.url).tiktok.refresh({ platformUserId: '1', accessToken: 'a', refreshToken: 'r', expiresAt: null }),
    );

    expect(err).toMatchObject({ transient: true, tokenRefused: false, code: 'network_error' });
  });

  test('when the app credentials are refused, then it is neither transient nor a refusal of the token', async () => {
    const client = youtubeOAuth({
      clientId: 'postbus-test',
      clientSecret: '',
      authorizeUrl: `${sandbox.url}/google/o/oauth2/v2/auth`,
      tokenUrl: `${sandbox.url}/google/token`,
      apiUrl: `${sandbox.url}/youtube/v3`,
    });

    const err = await errorOf(
      client.refresh({ platformUserId: '1', accessToken: 'a', refreshToken: 'r', expiresAt: null }),
    );

    expect(err).toMatchObject({ transient: false, tokenRefused: false, code: 'invalid_client', status: 401 });
  });

  test('when a Facebook Page is no longer granted, then its refresh is a definitive refusal', async () => {
    const a = await sandboxUser('facebook', 'kept');
    const { accounts } = await connect(clients().facebook, [a.userId]);

    const err = await errorOf(clients().facebook.refresh({ ...accounts[0].credentials, platformUserId: '999' }));

    expect(err).toMatchObject({ tokenRefused: true, code: 'page_not_granted' });
  });

  test('when a code is exchanged twice, then the second exchange is rejected and says which platform', async () => {
    const client = clients().threads;
    const user = await sandboxUser('threads', 'twice');
    const code = await approve(client.authorizeUrl({ redirectUri: REDIRECT, state: 's' }), [user.userId]);
    await client.exchangeCode({ code, redirectUri: REDIRECT });

    const err = await errorOf(client.exchangeCode({ code, redirectUri: REDIRECT }));

    expect(err).toMatchObject({ transient: false, platform: 'threads' });
    expect(err.message).toMatch(/^Threads /);
  });
});
