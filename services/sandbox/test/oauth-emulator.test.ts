import { createHash } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control } from './sandbox-client';
import { consent, form, get, oauthControl } from './oauth-support';

let sandbox: RunningSandbox;
let now = Date.parse('2026-03-01T10:00:00Z');
const REDIRECT = 'https://app.example/oauth/callback/x';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'POST', '/reset'));

const url = (path: string, query: Record<string, string>) =>
  `${sandbox.url}${path}?${new URLSearchParams(query).toString()}`;
const verifier = 'v'.repeat(43);
const challenge = createHash('sha256').update(verifier).digest('base64url');

async function tiktokCode(extra: Record<string, string> = {}) {
  const back = await consent(
    url('/tiktok/v2/auth/authorize/', {
      client_key: 'ck',
      response_type: 'code',
      scope: 'user.info.basic,video.publish',
      redirect_uri: REDIRECT,
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    }),
  );
  return back.searchParams.get('code')!;
}
const tiktokToken = (fields: Record<string, string>) =>
  form(`${sandbox.url}/tiktok/v2/oauth/token/`, { client_key: 'ck', client_secret: 'cs', ...fields });

describe('the consent page', () => {
  test('when a valid authorization request is opened, then it lists the accounts and offers Approve and Deny', async () => {
    await control(sandbox, 'POST', '/users', { platform: 'instagram', handle: 'lin.photos' });

    const res = await fetch(
      url('/instagram/oauth/authorize', {
        client_id: 'app',
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'instagram_business_basic',
        state: 'abc',
      }),
    );
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(html).toContain('@lin.photos');
    expect(html).toContain('>Approve</button>');
    expect(html).toContain('>Deny</button>');
  });

  test('when the request has no client id, then it shows an error and redirects nowhere', async () => {
    const res = await fetch(url('/google/o/oauth2/v2/auth', { redirect_uri: REDIRECT, response_type: 'code' }), {
      redirect: 'manual',
    });

    expect(res.status).toBe(400);
    expect(await res.text()).toContain('client_id is required');
  });

  test('when the person denies, then the redirect carries access_denied and the state', async () => {
    const back = await consent(
      url('/threads/oauth/authorize', {
        client_id: 'app',
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'threads_basic',
        state: 'st-1',
      }),
      { decision: 'deny' },
    );

    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(back.searchParams.get('code')).toBeNull();
  });
});

describe('TikTok', () => {
  test('when the code is exchanged with the PKCE verifier, then tokens come back and user info names the new account', async () => {
    const back = await consent(
      url('/tiktok/v2/auth/authorize/', {
        client_key: 'ck',
        response_type: 'code',
        scope: 'user.info.basic',
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { handle: 'dancer' },
    );
    const token = await tiktokToken({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    const info = await get(
      `${sandbox.url}/tiktok/v2/user/info/?fields=open_id,username,avatar_url`,
      token.body.access_token,
    );

    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      access_token: expect.stringMatching(/^act\./),
      refresh_token: expect.any(String),
      expires_in: 7200,
      token_type: 'Bearer',
      open_id: expect.any(String),
    });
    expect(info.body.error.code).toBe('ok');
    expect(info.body.data.user).toMatchObject({
      open_id: token.body.open_id,
      username: 'dancer',
      avatar_url: expect.stringMatching(/^http/),
    });
  });

  test('when the person approves fewer scopes than asked, then the token answer lists only those, and so does each refresh; the old refresh token stops working', async () => {
    const back = await consent(
      url('/tiktok/v2/auth/authorize/', {
        client_key: 'ck',
        response_type: 'code',
        scope: 'user.info.basic,video.publish,video.list',
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { scope: 'user.info.basic,video.list' },
    );
    const token = await tiktokToken({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    const refreshed = await tiktokToken({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token });
    const again = await tiktokToken({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token });

    expect(back.searchParams.get('scopes')).toBe('user.info.basic,video.list');
    expect(token.body.scope).toBe('user.info.basic,video.list');
    expect(refreshed.body.scope).toBe('user.info.basic,video.list');
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
    expect(again.body.error).toBe('invalid_grant');
  });

  test('when the person later takes a scope back, then the next refresh answers the narrower grant', async () => {
    const back = await consent(
      url('/tiktok/v2/auth/authorize/', {
        client_key: 'ck',
        response_type: 'code',
        scope: 'user.info.basic,video.publish',
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const token = await tiktokToken({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });

    const narrowed = await control(sandbox, 'POST', '/oauth/scopes', {
      userId: token.body.open_id,
      scopes: ['user.info.basic'],
    });
    const refreshed = await tiktokToken({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token });

    expect(narrowed.status).toBe(200);
    expect(refreshed.body.scope).toBe('user.info.basic');
  });

  test('when a code is used twice, then the second exchange answers invalid_grant', async () => {
    const code = await tiktokCode();
    await tiktokToken({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });

    const again = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });

    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  test.each([
    ['a wrong verifier', { code_verifier: 'w'.repeat(43) }],
    ['no verifier', { code_verifier: undefined }],
    ['another redirect URI', { redirect_uri: 'https://evil.example/cb' }],
  ])('when the code is exchanged with %s, then it answers invalid_grant', async (_what, change) => {
    const code = await tiktokCode();

    const res = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      ...(change as Record<string, string>),
    });

    expect(res.body.error).toBe('invalid_grant');
  });

  test('when a refresh token is used, then it is rotated and the old one answers invalid_grant', async () => {
    const code = await tiktokCode();
    const first = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });

    const refreshed = await tiktokToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    const reused = await tiktokToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    const next = await tiktokToken({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token });

    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    expect(reused.body.error).toBe('invalid_grant');
    expect(next.status).toBe(200);
  });

  test('when the account is revoked, then its refresh token answers invalid_grant', async () => {
    const code = await tiktokCode();
    const first = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    await control(sandbox, 'POST', `/users/${first.body.open_id}/revoke`);

    const res = await tiktokToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });

    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test('when the access token outlives its lifetime, then the API refuses it', async () => {
    await oauthControl(sandbox, '/settings', { platform: 'tiktok', accessTokenTtlSec: 60 });
    const code = await tiktokCode();
    const { body } = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    const before = await get(`${sandbox.url}/tiktok/v2/user/info/?fields=open_id`, body.access_token);

    now += 61_000;
    const after = await get(`${sandbox.url}/tiktok/v2/user/info/?fields=open_id`, body.access_token);

    expect(body.expires_in).toBe(60);
    expect(before.status).toBe(200);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('access_token_invalid');
  });

  test('when a token fault is queued, then the next token call answers 503 and the one after works', async () => {
    const code = await tiktokCode();
    const first = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    await oauthControl(sandbox, '/faults', { platform: 'tiktok', operation: 'token', status: 503 });

    const failed = await tiktokToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    const ok = await tiktokToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });

    expect(failed.status).toBe(503);
    expect(ok.status).toBe(200);
  });
});

describe('Google (YouTube)', () => {
  const authorize = (extra: Record<string, string> = {}) =>
    url('/google/o/oauth2/v2/auth', {
      client_id: 'gid',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/youtube.upload',
      access_type: 'offline',
      state: 'g',
      ...extra,
    });
  const token = (fields: Record<string, string>) =>
    form(`${sandbox.url}/google/token`, { client_id: 'gid', client_secret: 'gs', ...fields });

  test('when a code is exchanged and then refreshed, then the refresh answers a new access token and no new refresh token', async () => {
    const back = await consent(authorize(), { handle: 'MyChannel' });
    const first = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
    });
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    const channels = await get(
      `${sandbox.url}/youtube/v3/channels?part=snippet&mine=true`,
      refreshed.body.access_token,
    );

    expect(first.body).toMatchObject({
      access_token: expect.stringMatching(/^ya29\./),
      refresh_token: expect.any(String),
      expires_in: 3599,
    });
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    expect(refreshed.body.refresh_token).toBeUndefined();
    expect(channels.body.items).toEqual([
      expect.objectContaining({ snippet: expect.objectContaining({ title: 'MyChannel', customUrl: '@mychannel' }) }),
    ]);
  });

  test('when refresh tokens are switched off, then the code exchange answers none', async () => {
    await oauthControl(sandbox, '/settings', { platform: 'youtube', issueRefreshToken: false });
    const back = await consent(authorize());

    const first = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
    });

    expect(first.body.access_token).toEqual(expect.any(String));
    expect(first.body.refresh_token).toBeUndefined();
  });

  test('when the channels are read with an unknown token, then 401 authError', async () => {
    const res = await get(`${sandbox.url}/youtube/v3/channels?part=snippet&mine=true`, 'ya29.nope');

    expect(res.status).toBe(401);
    expect(res.body.error.errors[0].reason).toBe('authError');
  });
});

describe('Meta platforms', () => {
  test('when an Instagram code is exchanged, made long-lived and refreshed, then each token reads the same account', async () => {
    const back = await consent(
      url('/instagram/oauth/authorize', {
        client_id: 'ig',
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'instagram_business_basic',
      }),
      { handle: 'lin.photos' },
    );
    const short = await form(`${sandbox.url}/instagram/oauth/access_token`, {
      client_id: 'ig',
      client_secret: 's',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: back.searchParams.get('code')!,
    });
    const long = await get(
      `${sandbox.url}/instagram/access_token?grant_type=ig_exchange_token&client_secret=s&access_token=${short.body.access_token}`,
    );
    now += 25 * 3_600_000; // Instagram refreshes only tokens at least 24 hours old.
    const refreshed = await get(
      `${sandbox.url}/instagram/refresh_access_token?grant_type=ig_refresh_token&access_token=${long.body.access_token}`,
    );
    const me = await get(`${sandbox.url}/instagram/me?fields=user_id,username`, refreshed.body.access_token);

    expect(short.body).toMatchObject({ access_token: expect.stringMatching(/^IGAA/), user_id: expect.any(String) });
    expect(long.body).toMatchObject({ token_type: 'bearer', expires_in: 5_183_944 });
    expect(refreshed.body.access_token).not.toBe(long.body.access_token);
    expect(me.body).toMatchObject({ user_id: short.body.user_id, username: 'lin.photos' });
  });

  test('when an Instagram code is wrong, then the legacy OAuthException comes back', async () => {
    const res = await form(`${sandbox.url}/instagram/oauth/access_token`, {
      client_id: 'ig',
      client_secret: 's',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: 'nope',
    });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_type: 'OAuthException', error_message: expect.any(String) });
  });

  test('when a Threads grant is completed, then the Threads API recognises its long-lived token', async () => {
    const back = await consent(
      url('/threads/oauth/authorize', {
        client_id: 'th',
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'threads_basic',
      }),
      { handle: 'lin' },
    );
    const short = await form(`${sandbox.url}/threads/oauth/access_token`, {
      client_id: 'th',
      client_secret: 's',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: back.searchParams.get('code')!,
    });
    const long = await get(
      `${sandbox.url}/threads/access_token?grant_type=th_exchange_token&client_secret=s&access_token=${short.body.access_token}`,
    );

    const me = await get(`${sandbox.url}/threads/v1.0/me?fields=id,username`, long.body.access_token);

    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: short.body.user_id, username: 'lin' });
  });

  test('when a Meta token is refreshed after its user was revoked, then 190 with subcode 460', async () => {
    const back = await consent(
      url('/threads/oauth/authorize', { client_id: 'th', redirect_uri: REDIRECT, response_type: 'code' }),
    );
    const short = await form(`${sandbox.url}/threads/oauth/access_token`, {
      client_id: 'th',
      client_secret: 's',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: back.searchParams.get('code')!,
    });
    await control(sandbox, 'POST', `/users/${short.body.user_id}/revoke`);

    const res = await get(
      `${sandbox.url}/threads/refresh_access_token?grant_type=th_refresh_token&access_token=${short.body.access_token}`,
    );

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 190, error_subcode: 460 });
  });

  test('when two Facebook Pages are granted, then /me/accounts lists both with the Page tokens the Pages API knows', async () => {
    const a = await control(sandbox, 'POST', '/users', { platform: 'facebook', handle: 'bakery' });
    const b = await control(sandbox, 'POST', '/users', { platform: 'facebook', handle: 'cafe' });
    const back = await consent(
      url('/facebook/dialog/oauth', {
        client_id: 'fb',
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'pages_manage_posts',
      }),
      { accounts: [a.body.userId, b.body.userId] },
    );
    const short = await get(
      `${sandbox.url}/facebook/oauth/access_token?client_id=fb&client_secret=s&redirect_uri=${encodeURIComponent(REDIRECT)}&code=${back.searchParams.get('code')}`,
    );
    const long = await get(
      `${sandbox.url}/facebook/oauth/access_token?grant_type=fb_exchange_token&client_id=fb&client_secret=s&fb_exchange_token=${short.body.access_token}`,
    );

    const pages = await get(`${sandbox.url}/facebook/me/accounts?fields=id,name,access_token`, long.body.access_token);

    expect(long.body.expires_in).toBe(5_183_944);
    expect(pages.body.data.map((p: { id: string; access_token: string }) => [p.id, p.access_token])).toEqual([
      [a.body.userId, a.body.accessToken],
      [b.body.userId, b.body.accessToken],
    ]);
  });

  test('when a Facebook code is reused, then code 100 with subcode 36009', async () => {
    const back = await consent(
      url('/facebook/dialog/oauth', { client_id: 'fb', redirect_uri: REDIRECT, response_type: 'code' }),
    );
    const exchange = () =>
      get(
        `${sandbox.url}/facebook/oauth/access_token?client_id=fb&client_secret=s&redirect_uri=${encodeURIComponent(REDIRECT)}&code=${back.searchParams.get('code')}`,
      );
    await exchange();

    const again = await exchange();

    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 100, error_subcode: 36009, type: 'OAuthException' });
  });
});

describe('the OAuth control API', () => {
  test('when settings name an unknown platform, then validation_error', async () => {
    const res = await oauthControl(sandbox, '/settings', { platform: 'myspace', accessTokenTtlSec: 5 });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  test('when tokens were handed out, then the token log lists them by platform', async () => {
    const code = await tiktokCode();
    const { body } = await tiktokToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });

    const res = await fetch(`${sandbox.url}/__sandbox/oauth/tokens?platform=tiktok`);
    const { tokens } = (await res.json()) as { tokens: { token: string; kind: string }[] };

    expect(tokens.map((t) => [t.kind, t.token])).toEqual([
      ['refresh', body.refresh_token],
      ['access', body.access_token],
    ]);
  });
});
