import {
  callPinterest,
  createPinterestPin,
  findPinterestPin,
  getPinterestEngagement,
  isPlatformError,
  listPinterestBoards,
  pinterestOAuth,
  type PinterestApiOptions,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function pinner(handle: string) {
  const user = await newUser(sandbox, 'pinterest', handle);
  const board = await control(sandbox, 'POST', '/pinterest/boards', {
    userId: user.userId,
    name: 'Recipes',
    sections: 1,
  });
  expect(board.status).toBe(201);
  const api: PinterestApiOptions = { baseUrl: `${sandbox.url}/pinterest`, accessToken: user.accessToken };
  return { user, boardId: board.body.id as string, sectionId: board.body.sectionIds[0] as string, api };
}

const requests = async (since = 0) =>
  (await control(sandbox, 'GET', `/requests?platform=pinterest&since=${since}`)).body as {
    seq: number;
    method: string;
    path: string;
    body: Record<string, unknown> | null;
  }[];
const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;

describe('pins', () => {
  test('when an image pin is created with every field, then the sandbox receives exactly that body and lists the pin as published with its permalink', async () => {
    const { api, boardId, sectionId, user } = await pinner('image_pinner');
    const since = await lastSeq();
    const pin = await createPinterestPin(api, {
      boardId,
      boardSectionId: sectionId,
      title: 'Lemon tart',
      description: 'Bright and sharp.',
      link: 'https://example.com/tart',
      altText: 'A lemon tart on a plate',
      media: { kind: 'image', url: 'https://cdn.example.com/tart.jpg' },
    });
    expect(await requests(since)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/pinterest/v5/pins',
        body: {
          board_id: boardId,
          board_section_id: sectionId,
          title: 'Lemon tart',
          description: 'Bright and sharp.',
          link: 'https://example.com/tart',
          alt_text: 'A lemon tart on a plate',
          media_source: { source_type: 'image_url', url: 'https://cdn.example.com/tart.jpg' },
        },
      }),
    ]);
    const published = (await control(sandbox, 'GET', `/published?platform=pinterest&userId=${user.userId}`)).body;
    expect(published).toEqual([
      expect.objectContaining({
        id: pin.id,
        permalink: `https://www.pinterest.com/pin/${pin.id}/`,
        title: 'Lemon tart',
      }),
    ]);
  });

  test('when a carousel pin carries 3 images, then media_source is multiple_image_urls; 1 or 6 images are refused by the sandbox', async () => {
    const { api, boardId } = await pinner('carousel_pinner');
    const urls = [1, 2, 3].map((i) => `https://cdn.example.com/${i}.jpg`);
    const since = await lastSeq();
    await createPinterestPin(api, { boardId, media: { kind: 'carousel', urls } });
    expect((await requests(since))[0].body).toMatchObject({
      media_source: { source_type: 'multiple_image_urls', items: urls.map((url) => ({ url })) },
    });
    for (const n of [1, 6]) {
      const items = Array.from({ length: n }, (_v, i) => ({ url: `https://cdn.example.com/${i}.jpg` }));
      const res = await call(`${api.baseUrl}/v5/pins`, {
        token: api.accessToken,
        json: { board_id: boardId, media_source: { source_type: 'multiple_image_urls', items } },
      });
      expect(res).toMatchObject({ status: 400, body: { code: 1, message: expect.stringContaining('2 to 5') } });
    }
  });

  test('when the sandbox is sent what Pinterest refuses (long title, another account board, no media, unknown property), then it answers 4xx { code, message }', async () => {
    const { api, boardId } = await pinner('strict_pinner');
    const other = await pinner('other_pinner');
    const media_source = { source_type: 'image_url', url: 'https://cdn.example.com/a.jpg' };
    const cases: [Record<string, unknown>, number][] = [
      [{ board_id: boardId, title: 'x'.repeat(101), media_source }, 400],
      [{ board_id: boardId, description: 'x'.repeat(801), media_source }, 400],
      [{ board_id: boardId, alt_text: 'x'.repeat(501), media_source }, 400],
      [{ board_id: boardId, link: 'ftp://example.com', media_source }, 400],
      [{ board_id: other.boardId, media_source }, 404],
      [{ board_id: boardId }, 400],
      [{ board_id: boardId, media_source, colour: 'red' }, 400],
    ];
    for (const [json, status] of cases) {
      const res = await call(`${api.baseUrl}/v5/pins`, { token: api.accessToken, json });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ code: expect.any(Number), message: expect.any(String) });
    }
  });

  test('when a pin was made but its answer was lost, then findPinterestPin finds it on the board by title, description and link', async () => {
    const { api, boardId } = await pinner('lost_pinner');
    await control(sandbox, 'POST', '/faults', { platform: 'pinterest', mode: 'timeout', operation: 'publish' });
    const since = new Date();
    const input = {
      boardId,
      title: 'Lost',
      description: 'Its answer never came',
      media: { kind: 'image' as const, url: 'https://cdn.example.com/l.jpg' },
    };
    const err = await createPinterestPin({ ...api, timeoutMs: 500 }, input).catch((e: unknown) => e);
    expect(isPlatformError(err) && err.outcomeUnknown).toBe(true);
    const found = await findPinterestPin(api, since, input);
    expect(found?.id).toMatch(/^\d+$/);
    expect(await findPinterestPin(api, since, { ...input, title: 'Another' })).toBeUndefined();
  });
});

describe('errors as the publisher sees them', () => {
  test('when the token is revoked, then a call is a PlatformError with tokenRejected; a throttle carries the reset wait; a 5xx on a write is outcome-unknown', async () => {
    const { api, user, boardId } = await pinner('error_pinner');
    await control(sandbox, 'POST', '/faults', { platform: 'pinterest', mode: 'throttle', operation: 'read' });
    const throttled = await listPinterestBoards(api).catch((e: unknown) => e);
    expect(throttled).toMatchObject({
      transient: true,
      status: 429,
      retryAfterMs: 60_000,
      throttle: { kind: 'rate_limit' },
    });
    await control(sandbox, 'POST', '/faults', { platform: 'pinterest', mode: 'error', status: 503 });
    const failed = await createPinterestPin(api, {
      boardId,
      media: { kind: 'image', url: 'https://cdn.example.com/a.jpg' },
    }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ transient: true, outcomeUnknown: true, status: 503 });
    await control(sandbox, 'POST', `/users/${user.userId}/revoke`);
    const refused = await callPinterest(api, { method: 'GET', path: '/v5/user_account' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ transient: false, tokenRejected: true, status: 401, code: 2 });
  });
});

describe('boards', () => {
  test('when an account has 30 boards, then listPinterestBoards follows the bookmark across pages and reads all of them', async () => {
    const { api, user, boardId } = await pinner('many_boards');
    for (let i = 0; i < 29; i++)
      await control(sandbox, 'POST', '/pinterest/boards', { userId: user.userId, name: `Board ${i}` });
    const page = await call(`${api.baseUrl}/v5/boards?page_size=25`, { token: api.accessToken });
    expect(page.body.items).toHaveLength(25);
    expect(page.body.bookmark).toEqual(expect.any(String));
    const boards = await listPinterestBoards({ ...api });
    expect(boards).toHaveLength(30);
    expect(boards[0]).toEqual({ id: boardId, name: 'Recipes', description: '', privacy: 'PUBLIC' });
  });
});

describe('OAuth', () => {
  test('when a person consents and the code is exchanged with HTTP Basic, then the token reads the account; a refresh with continuous_refresh answers a new refresh token', async () => {
    const user = await newUser(sandbox, 'pinterest', 'oauth_pinner');
    const client = pinterestOAuth({
      clientId: 'pin-app',
      clientSecret: 'pin-secret',
      authorizeUrl: `${sandbox.url}/pinterest/oauth/`,
      apiUrl: `${sandbox.url}/pinterest`,
    });
    const redirectUri = 'https://postbus.example/oauth/callback/pinterest';
    const consent = new URL(client.authorizeUrl({ redirectUri, state: 's1' }));
    expect(consent.searchParams.get('scope')).toBe('boards:read,pins:read,pins:write,user_accounts:read');
    const approved = await fetch(consent, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...Object.fromEntries(consent.searchParams),
        account: user.userId,
        decision: 'approve',
      }),
    });
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const tokens = await client.exchangeCode({ code, redirectUri });
    expect(tokens.scopes).toEqual(['boards:read', 'pins:read', 'pins:write', 'user_accounts:read']);
    const [account] = await client.listAccounts(tokens);
    expect(account).toMatchObject({ platformUserId: user.userId, handle: 'oauth_pinner' });
    const refreshed = await client.refresh({ ...account.credentials });
    expect(refreshed.refreshToken).toEqual(expect.any(String));
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    const withoutBasic = await call(`${sandbox.url}/pinterest/v5/oauth/token`, {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken! },
    });
    expect(withoutBasic.status).toBe(401);
    const bad = await client.refresh({ ...account.credentials, refreshToken: 'nope' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ tokenRefused: true, transient: false });
  });

  test('when a token lacks pins:write, then creating a pin is 403', async () => {
    const user = await newUser(sandbox, 'pinterest', 'scoped_pinner');
    const client = pinterestOAuth({
      clientId: 'a',
      clientSecret: 'b',
      authorizeUrl: `${sandbox.url}/pinterest/oauth/`,
      apiUrl: `${sandbox.url}/pinterest`,
    });
    const consent = new URL(client.authorizeUrl({ redirectUri: 'https://p.example/cb', state: 's' }));
    consent.searchParams.set('scope', 'boards:read,user_accounts:read');
    const approved = await fetch(consent, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...Object.fromEntries(consent.searchParams),
        account: user.userId,
        decision: 'approve',
      }),
    });
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const tokens = await client.exchangeCode({ code, redirectUri: 'https://p.example/cb' });
    const board = await control(sandbox, 'POST', '/pinterest/boards', { userId: user.userId, name: 'B' });
    const err = await createPinterestPin(
      { baseUrl: `${sandbox.url}/pinterest`, accessToken: tokens.accessToken },
      { boardId: board.body.id, media: { kind: 'image', url: 'https://cdn.example.com/a.jpg' } },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, transient: false });
  });
});

describe('analytics', () => {
  test("when a pin's figures are read, then impressions are views, saves are shares, comments are comments and likes are not reported; a date range over 90 days is refused", async () => {
    const { api, boardId } = await pinner('analytics_pinner');
    const pin = await createPinterestPin(api, {
      boardId,
      media: { kind: 'image', url: 'https://cdn.example.com/s.jpg' },
    });
    await control(sandbox, 'POST', '/insights', {
      platform: 'pinterest',
      id: pin.id,
      views: 812,
      shares: 40,
      comments: 3,
    });
    const since = await lastSeq();
    expect(await getPinterestEngagement(api, pin.id)).toEqual({ views: 812, likes: null, comments: 3, shares: 40 });
    const [request] = await requests(since);
    expect(request).toMatchObject({ method: 'GET', path: `/pinterest/v5/pins/${pin.id}/analytics` });
    const old = await call(
      `${api.baseUrl}/v5/pins/${pin.id}/analytics?start_date=2020-01-01&end_date=2020-01-02&metric_types=IMPRESSION`,
      { token: api.accessToken },
    );
    expect(old.status).toBe(400);
    const gone = await getPinterestEngagement(api, '999').catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'not_listed', transient: false });
  });
});
