import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control } from './emulator-client';
import { consent, form, get, oauthControl } from './oauth-support';

/**
 * The rules the real platforms impose on a new app, on by default: an unaudited TikTok client,
 * Instagram and Threads refreshing only day-old tokens, and only approved scopes at authorize.
 * Each can be relaxed for a test.
 */

let sandbox: RunningSandbox;
let now = Date.parse('2026-11-20T10:00:00Z');
const HOUR = 3_600_000;
const REDIRECT = 'https://app.example/oauth/callback/x';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'POST', '/reset'));

const url = (path: string, query: Record<string, string>) =>
  `${sandbox.url}${path}?${new URLSearchParams(query).toString()}`;

describe('an unaudited TikTok client', () => {
  const tiktokUser = async (handle: string, isPrivate: boolean) =>
    (await control(sandbox, 'POST', '/users', { platform: 'tiktok', handle, private: isPrivate })).body;
  const init = (token: string, privacy: string) =>
    call(`${sandbox.url}/tiktok/v2/post/publish/video/init/`, {
      token,
      json: {
        post_info: { title: 'T', privacy_level: privacy },
        source_info: {
          source: 'PULL_FROM_URL',
          video_url: 'http://localhost:3000/files/v.mp4' /* under the default verified prefix */,
        },
      },
    });

  test('when a post is PUBLIC or the account is public, then TikTok refuses it with unaudited_client_can_only_post_to_private_accounts; SELF_ONLY to a private account goes', async () => {
    const publicAccount = await tiktokUser('open.one', false);
    const privateAccount = await tiktokUser('closed.one', true);

    const publicPost = await init(privateAccount.accessToken, 'PUBLIC_TO_EVERYONE');
    const toPublicAccount = await init(publicAccount.accessToken, 'SELF_ONLY');
    const selfOnly = await init(privateAccount.accessToken, 'SELF_ONLY');

    expect(publicPost.status).toBe(403);
    expect(publicPost.body.error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
    expect(toPublicAccount.body.error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
    expect(selfOnly.status).toBe(200);
    expect(selfOnly.body.error.code).toBe('ok');
  });

  test('when creator_info is read, then only SELF_ONLY is offered', async () => {
    const user = await tiktokUser('closed.two', true);
    const info = await call(`${sandbox.url}/tiktok/v2/post/publish/creator_info/query/`, {
      token: user.accessToken,
      json: {},
    });

    expect(info.body.data.privacy_level_options).toEqual(['SELF_ONLY']);
  });

  test('when a sixth user posts within 24 hours, then reached_active_user_cap; the first five may post again, and a day later the sixth may too', async () => {
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await tiktokUser(`creator.${i}`, true));
    for (const u of users.slice(0, 5)) expect((await init(u.accessToken, 'SELF_ONLY')).status).toBe(200);

    const sixth = await init(users[5].accessToken, 'SELF_ONLY');
    const again = await init(users[0].accessToken, 'SELF_ONLY');
    now += 24 * HOUR + 1;
    const nextDay = await init(users[5].accessToken, 'SELF_ONLY');

    expect(sixth.status).toBe(403);
    expect(sixth.body.error.code).toBe('reached_active_user_cap');
    expect(again.status).toBe(200);
    expect(nextDay.status).toBe(200);
  });

  test('when the client is set audited, then a PUBLIC post to a public account goes and creator_info offers every level', async () => {
    const audit = await control(sandbox, 'POST', '/tiktok/audit', { unaudited: false });
    const user = await tiktokUser('open.two', false);

    const post = await init(user.accessToken, 'PUBLIC_TO_EVERYONE');
    const info = await call(`${sandbox.url}/tiktok/v2/post/publish/creator_info/query/`, {
      token: user.accessToken,
      json: {},
    });

    expect(audit.body).toEqual({ unaudited: false, usersPerDay: 5 });
    expect(post.status).toBe(200);
    expect(info.body.data.privacy_level_options).toContain('PUBLIC_TO_EVERYONE');
  });

  test('when an audited client reads creator_info of a private account, then PUBLIC_TO_EVERYONE is not offered', async () => {
    await control(sandbox, 'POST', '/tiktok/audit', { unaudited: false });
    const user = await tiktokUser('closed.three', true);

    const info = await call(`${sandbox.url}/tiktok/v2/post/publish/creator_info/query/`, {
      token: user.accessToken,
      json: {},
    });

    expect(info.body.data.privacy_level_options).toEqual(['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
  });
});

describe.each([
  ['instagram', 'ig', 'instagram_business_basic'],
  ['threads', 'th', 'threads_basic'],
] as const)('%s token refresh', (platform, prefix, scope) => {
  async function longLivedToken(): Promise<string> {
    const back = await consent(
      url(`/${platform}/oauth/authorize`, { client_id: 'app', redirect_uri: REDIRECT, response_type: 'code', scope }),
    );
    const short = await form(`${sandbox.url}/${platform}/oauth/access_token`, {
      client_id: 'app',
      client_secret: 's',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: back.searchParams.get('code')!,
    });
    const long = await get(
      `${sandbox.url}/${platform}/access_token?grant_type=${prefix}_exchange_token&client_secret=s&access_token=${short.body.access_token}`,
    );
    return long.body.access_token;
  }
  const refresh = (token: string) =>
    get(`${sandbox.url}/${platform}/refresh_access_token?grant_type=${prefix}_refresh_token&access_token=${token}`);

  test('when a token under 24 hours old is refreshed, then it is refused without calling it invalid; at 24 hours it is refreshed', async () => {
    const token = await longLivedToken();
    now += 23 * HOUR;
    const young = await refresh(token);
    now += 1 * HOUR;
    const dayOld = await refresh(token);

    expect(young.status).toBe(400);
    expect(young.body.error).toMatchObject({ code: 100, message: expect.stringContaining('24 hours') });
    expect(dayOld.status).toBe(200);
    expect(dayOld.body.access_token).toEqual(expect.any(String));
  });

  test('when the rule is relaxed (refreshMinAgeSec 0), then a fresh token is refreshed', async () => {
    await oauthControl(sandbox, '/settings', { platform, refreshMinAgeSec: 0 });
    const token = await longLivedToken();

    expect((await refresh(token)).status).toBe(200);
  });
});

describe('approved scopes at authorize', () => {
  const dialog = (scope: string) =>
    url('/facebook/dialog/oauth', {
      client_id: 'fb',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope,
      state: 'st-9',
    });

  test('when a scope the app is not approved for is asked, then the redirect carries invalid_scope and the state, and no code', async () => {
    const res = await fetch(dialog('pages_manage_posts,publish_video'), { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);

    expect(res.status).toBe(303);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('error_description')).toContain('publish_video');
    expect(back.searchParams.get('state')).toBe('st-9');
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('when only approved scopes are asked, then the consent page opens', async () => {
    expect((await fetch(dialog('pages_show_list,pages_manage_posts'))).status).toBe(200);
  });

  test('when the approved list is relaxed (null), then any scope opens the consent page', async () => {
    await oauthControl(sandbox, '/settings', { platform: 'facebook', approvedScopes: null });

    expect((await fetch(dialog('pages_manage_posts,publish_video'))).status).toBe(200);
  });
});
