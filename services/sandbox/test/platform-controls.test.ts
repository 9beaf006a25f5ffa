import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'POST', '/reset'));

describe('the sandbox controls for every platform', () => {
  test.each([
    ['instagram', /^IGAA/],
    ['facebook', /^EAAB/],
    ['threads', /^THAA/],
    ['tiktok', /^act\./],
    ['youtube', /^ya29\./],
  ])('when a %s user is created, then it gets a token shaped like the platform’s', async (platform, token) => {
    const res = await control(sandbox, 'POST', '/users', { platform, handle: 'someone' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      platform,
      userId: expect.stringMatching(/^\d+$/),
      accessToken: expect.stringMatching(token),
      handle: 'someone',
    });
  });

  test('when one platform gets its own processing delay, then only its media takes that long', async () => {
    const res = await control(sandbox, 'POST', '/settings', {
      platform: 'instagram',
      processingDelayMs: 60_000,
      latencyMs: 5,
    });
    expect(res.body).toEqual({
      platform: 'instagram',
      processingDelayMs: 60_000,
      latencyMs: 5,
      effective: { processingDelayMs: 60_000, latencyMs: 5, throttlePerMinute: null },
    });
    const ig = await newUser(sandbox, 'instagram');
    const th = await newUser(sandbox, 'threads');

    const igContainer = (
      await call(`${sandbox.url}/instagram/v21.0/${ig.userId}/media`, {
        token: ig.accessToken,
        form: { media_type: 'REELS', video_url: 'https://c/v.mp4' },
      })
    ).body.id;
    const thContainer = (
      await call(`${sandbox.url}/threads/v1.0/${th.userId}/threads`, {
        token: th.accessToken,
        form: { media_type: 'VIDEO', video_url: 'https://c/v.mp4' },
      })
    ).body.id;

    expect(
      (await call(`${sandbox.url}/instagram/v21.0/${igContainer}?fields=status_code`, { token: ig.accessToken })).body
        .status_code,
    ).toBe('IN_PROGRESS');
    expect(
      (await call(`${sandbox.url}/threads/v1.0/${thContainer}?fields=status`, { token: th.accessToken })).body.status,
    ).toBe('FINISHED');
  });

  test('when a platform is throttled per minute, then calls beyond it answer that platform’s own throttling error', async () => {
    for (const platform of ['instagram', 'tiktok', 'youtube'])
      await control(sandbox, 'POST', '/settings', { platform, throttlePerMinute: 1 });
    const ig = await newUser(sandbox, 'instagram');
    const tt = await newUser(sandbox, 'tiktok');
    const yt = await newUser(sandbox, 'youtube');
    const igCall = () =>
      call(`${sandbox.url}/instagram/v21.0/${ig.userId}/content_publishing_limit`, { token: ig.accessToken });
    const ttCall = () =>
      call(`${sandbox.url}/tiktok/v2/post/publish/creator_info/query/`, { token: tt.accessToken, json: {} });
    const ytCall = () =>
      call(`${sandbox.url}/youtube/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
        token: yt.accessToken,
        json: {},
      });

    await Promise.all([igCall(), ttCall(), ytCall()]);
    const [igThrottled, ttThrottled, ytThrottled] = await Promise.all([igCall(), ttCall(), ytCall()]);

    expect([igThrottled.status, igThrottled.body.error.code]).toEqual([429, 4]);
    expect([ttThrottled.status, ttThrottled.body.error.code]).toEqual([429, 'rate_limit_exceeded']);
    expect([ytThrottled.status, ytThrottled.body.error.errors[0].reason]).toEqual([429, 'rateLimitExceeded']);
  });

  test('when throttlePerMinute is set without a platform, then it is refused with validation_error', async () => {
    const res = await control(sandbox, 'POST', '/settings', { throttlePerMinute: 5 });
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
  });

  test('when platforms are called, then /requests lists what each received, with protocol headers and without tokens', async () => {
    const th = await newUser(sandbox, 'threads');
    const tt = await newUser(sandbox, 'tiktok');
    await call(`${sandbox.url}/threads/v1.0/${th.userId}/threads?access_token=${th.accessToken}`, {
      form: { media_type: 'TEXT', text: 'hi' },
    });
    await call(`${sandbox.url}/tiktok/v2/post/publish/creator_info/query/`, { token: tt.accessToken, json: {} });

    const all = (await control(sandbox, 'GET', '/requests')).body;
    const threads = (await control(sandbox, 'GET', '/requests?platform=threads')).body;

    expect(all.map((r: { platform: string }) => r.platform)).toEqual(['threads', 'tiktok']);
    expect(threads).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/threads/v1.0/${th.userId}/threads`,
        query: {},
        authScheme: null,
        body: { media_type: 'TEXT', text: 'hi' },
        headers: expect.objectContaining({ 'content-type': 'application/x-www-form-urlencoded' }),
      }),
    ]);
    expect(JSON.stringify(all)).not.toContain(th.accessToken);
    expect(JSON.stringify(all)).not.toContain(tt.accessToken);
    expect((await control(sandbox, 'GET', `/requests?since=${all[0].seq}`)).body).toHaveLength(1);
  });

  test('when a fault names a TikTok error code and the upload operation, then it is accepted and hits the next upload', async () => {
    const res = await control(sandbox, 'POST', '/faults', {
      platform: 'tiktok',
      mode: 'error',
      operation: 'upload',
      status: 403,
      reason: 'spam_risk_too_many_posts',
    });
    expect(res.status).toBe(201);
    expect(res.body.fault).toMatchObject({ operation: 'upload', reason: 'spam_risk_too_many_posts' });
    const put = await call(`${sandbox.url}/tiktok-upload/video/?upload_id=1&upload_token=x`, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: new Uint8Array(1),
    });
    expect([put.status, put.body.error.code]).toEqual([403, 'spam_risk_too_many_posts']);
  });

  test('when the sandbox is reset, then requests and per-platform settings are forgotten', async () => {
    await control(sandbox, 'POST', '/settings', { platform: 'facebook', latencyMs: 50 });
    await call(`${sandbox.url}/facebook/v21.0/me`, { token: 'EAABnope' });

    await control(sandbox, 'POST', '/reset');

    expect((await control(sandbox, 'GET', '/requests')).body).toEqual([]);
    expect(sandbox.state.settingsFor('facebook').latencyMs).toBe(0);
  });
});
