import { aJpeg } from '@postbus/testing';
import {
  appendXUpload,
  createXPost,
  finalizeXUpload,
  findXPost,
  getXMe,
  getXUploadStatus,
  xProcessingFailure,
  initializeXUpload,
  isPlatformError,
  uploadXImage,
  type PlatformError,
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

const apiOf = (accessToken: string) => ({ baseUrl: `${sandbox.url}/x`, accessToken, timeoutMs: 5000 });

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    if (isPlatformError(err)) return err;
    throw err;
  }
  throw new Error('expected a PlatformError');
}

const received = async (userSeq: number) =>
  (
    (await control(sandbox, 'GET', `/requests?platform=x&since=${userSeq}`)).body as {
      method: string;
      path: string;
      body: unknown;
    }[]
  ).map((r) => ({ line: `${r.method} ${r.path}`, body: r.body }));
const lastSeq = async () => {
  const all = (await control(sandbox, 'GET', '/requests')).body as { seq: number }[];
  return all.at(-1)?.seq ?? 0;
};

describe('posting on the emulated X API', () => {
  test('when a text post and a reply to it are created, then each answers its id and the timeline lists the reply with its parent', async () => {
    const user = await newUser(sandbox, 'x', 'x_text');
    const api = apiOf(user.accessToken);
    const since = await lastSeq();

    const first = await createXPost(api, { text: 'Hello X' });
    const reply = await createXPost(api, { text: 'and a reply', inReplyTo: first.id });

    expect(await received(since)).toEqual([
      { line: 'POST /x/2/tweets', body: { text: 'Hello X' } },
      { line: 'POST /x/2/tweets', body: { text: 'and a reply', reply: { in_reply_to_tweet_id: first.id } } },
    ]);
    const found = await findXPost(api, user.userId, new Date(Date.now() - 5000), {
      text: 'and a reply',
      inReplyTo: first.id,
    });
    expect(found?.id).toBe(reply.id);
    expect(await findXPost(api, user.userId, new Date(Date.now() - 5000), { text: 'and a reply' })).toBeUndefined();
    expect(await getXMe(api)).toMatchObject({ id: user.userId, username: 'x_text' });
  });

  test('when a post is too long as X counts it, repeats a text or names media that is not ready, then X refuses it', async () => {
    const user = await newUser(sandbox, 'x', 'x_refused');
    const api = apiOf(user.accessToken);
    // 141 CJK characters weigh 282.
    expect(await failure(createXPost(api, { text: '漢'.repeat(141) }))).toMatchObject({
      status: 400,
      transient: false,
    });
    await createXPost(api, { text: 'once only' });
    expect(await failure(createXPost(api, { text: 'once only' }))).toMatchObject({
      status: 403,
      code: 'duplicate_content',
    });
    const videoId = await initializeXUpload(api, { contentType: 'video/mp4', totalBytes: 10, category: 'tweet_video' });
    expect((await failure(createXPost(api, { text: 'early', mediaIds: [videoId] }))).message).toMatch(/not ready/);
  });

  test('when an image is uploaded in one call, then a post carries it and the timeline names it by media key', async () => {
    const user = await newUser(sandbox, 'x', 'x_photo');
    const api = apiOf(user.accessToken);
    const image = await uploadXImage(api, { bytes: aJpeg(4000), contentType: 'image/jpeg' });
    const post = await createXPost(api, { text: 'A view', mediaIds: [image.id] });
    const found = await findXPost(api, user.userId, new Date(Date.now() - 5000), {
      text: 'A view',
      mediaIds: [image.id],
    });
    expect(found?.id).toBe(post.id);
    // A GIF cannot take the one-call upload, whatever type the client names: X reads the bytes.
    expect(
      (
        await failure(
          uploadXImage(api, {
            bytes: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(100)]),
            contentType: 'image/jpeg',
          }),
        )
      ).status,
    ).toBe(400);
  });

  test('when a video is sent in chunks, then finalize reports processing until it succeeds, and a short upload is refused at finalize', async () => {
    const user = await newUser(sandbox, 'x', 'x_video');
    const api = apiOf(user.accessToken);
    sandbox.state.x.limits.videoProcessingMs = 200;
    try {
      const id = await initializeXUpload(api, { contentType: 'video/mp4', totalBytes: 12, category: 'tweet_video' });
      await appendXUpload(api, id, 0, new Uint8Array(8));
      await appendXUpload(api, id, 1, new Uint8Array(4));
      expect((await finalizeXUpload(api, id)).state).toBe('in_progress');
      await new Promise((r) => setTimeout(r, 250));
      expect((await getXUploadStatus(api, id)).state).toBe('succeeded');
      await createXPost(api, { text: 'clip', mediaIds: [id] });

      const broken = await initializeXUpload(api, { contentType: 'video/mp4', totalBytes: 4, category: 'tweet_video' });
      await appendXUpload(api, broken, 0, new Uint8Array(4));
      await finalizeXUpload(api, broken);
      sandbox.state.x.media.get(broken)!.failed = 'Unsupported video codec';
      const failed = await getXUploadStatus(api, broken);
      expect(failed).toMatchObject({ state: 'failed', error: 'Unsupported video codec' });
      expect(xProcessingFailure(failed)).toMatchObject({ code: 'media_processing_failed', transient: false });

      const short = await initializeXUpload(api, { contentType: 'video/mp4', totalBytes: 12, category: 'tweet_video' });
      await appendXUpload(api, short, 0, new Uint8Array(8));
      expect((await failure(finalizeXUpload(api, short))).message).toMatch(/size mismatch/);
    } finally {
      sandbox.state.x.limits.videoProcessingMs = 0;
    }
  });

  test('when a video is larger than 512 MB or a GIF than 15 MB, then initialize refuses it', async () => {
    const api = apiOf((await newUser(sandbox, 'x', 'x_big')).accessToken);
    const big = { contentType: 'video/mp4', totalBytes: 512 * 1024 * 1024 + 1, category: 'tweet_video' as const };
    expect((await failure(initializeXUpload(api, big))).status).toBe(400);
    const gif = { contentType: 'image/gif', totalBytes: 15 * 1024 * 1024 + 1, category: 'tweet_gif' as const };
    expect((await failure(initializeXUpload(api, gif))).status).toBe(400);
  });
});

describe('OAuth on the emulated X', () => {
  const authorize = (query: Record<string, string>) =>
    fetch(`${sandbox.url}/x/i/oauth2/authorize?${new URLSearchParams(query).toString()}`, { redirect: 'manual' });

  test('when the consent page is asked for without PKCE, then X refuses it; with PKCE it is shown', async () => {
    const base = {
      response_type: 'code',
      client_id: 'cid',
      redirect_uri: 'https://app.example/cb',
      scope: 'tweet.read',
      state: 's',
    };
    expect((await authorize(base)).status).toBe(400);
    expect((await authorize({ ...base, code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' })).status).toBe(
      200,
    );
  });

  test('when the token endpoint is called without the client in HTTP Basic, then it answers invalid_client', async () => {
    const res = await call(`${sandbox.url}/x/2/oauth2/token`, {
      form: { grant_type: 'refresh_token', refresh_token: 'anything', client_id: 'cid' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'invalid_client' });
  });
});

describe('refusals that name who must act', () => {
  test('when the token is unknown, then the call is refused as a token to replace', async () => {
    expect(await failure(getXMe(apiOf('xat-nonsense')))).toMatchObject({ status: 401, tokenRejected: true });
  });

  test.each([
    ['UsageCapExceeded', 429],
    ['client-not-enrolled', 403],
    ['CreditsDepleted', 402],
  ])(
    'when the app answers %s, then the failure says the app’s own X plan is the limit and is not retried',
    async (reason, status) => {
      const api = apiOf((await newUser(sandbox, 'x', `x_plan_${status}`)).accessToken);
      await control(sandbox, 'POST', '/faults', { platform: 'x', mode: 'error', operation: 'publish', reason });
      const err = await failure(createXPost(api, { text: `plan ${reason}` }));
      expect(err).toMatchObject({ status, code: 'x_plan_limit', transient: false });
      expect(err.message).toMatch(/your own X developer app's plan/);
    },
  );

  test('when the user posts past the window, then X answers 429 with x-rate-limit-* headers and the error waits until the reset', async () => {
    const user = await newUser(sandbox, 'x', 'x_window');
    sandbox.state.x.limits.postsPerWindow = 1;
    try {
      const ok = await call(`${sandbox.url}/x/2/tweets`, { token: user.accessToken, json: { text: 'one' } });
      expect(ok.status).toBe(201);
      expect(ok.headers.get('x-rate-limit-remaining')).toBe('0');
      const err = await failure(createXPost(apiOf(user.accessToken), { text: 'two' }));
      expect(err).toMatchObject({ status: 429, transient: true, throttle: { kind: 'rate_limit', scope: 'account' } });
      expect(err.retryAfterMs).toBeGreaterThan(0);
    } finally {
      sandbox.state.x.limits.postsPerWindow = 100;
    }
  });
});
