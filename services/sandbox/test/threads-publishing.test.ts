import {
  PlatformError,
  THREADS_TEXT_MAX,
  THREADS_TOKEN_REASON,
  createThreadsContainer,
  getThreadsContainerStatus,
  publishThreadsContainer,
  publishToThreads,
  type PublishToThreadsOptions,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '../src/main';
import { aThreadsAccount, control, errorOf, injectFault, publishedOn, type ThreadsAccount } from './sandbox-client';

let sandbox: RunningSandbox;
let account: ThreadsAccount;
// The sandbox's clock, moved by hand: each request the client makes moves it 10 ms, so a container
// created IN_PROGRESS finishes after its fourth status check, however late a loaded machine runs them.
let clock = Date.now();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 40, now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  account = await aThreadsAccount(sandbox, 'ada.writes');
});

/** A fetch that moves the sandbox's clock 10 ms once Threads has answered. */
const tickingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  clock += 10;
  return res;
};

function publish(overrides: Partial<PublishToThreadsOptions> = {}) {
  return publishToThreads({
    fetchImpl: tickingFetch,
    baseUrl: account.baseUrl,
    userId: account.userId,
    accessToken: account.accessToken,
    text: 'Hello from Postbus',
    mediaUrls: [],
    pollIntervalMs: 10,
    maxPolls: 50,
    ...overrides,
  });
}

/** A fetch that records every URL it is asked for. */
function recordingFetch() {
  const calls: string[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${input instanceof Request ? input.url : String(input)}`);
    return tickingFetch(input, init);
  };
  return { calls, fetchImpl };
}

describe('publishing to the Threads sandbox with the real client', () => {
  test('when a text post is published, then it is live once with a permalink', async () => {
    const { calls, fetchImpl } = recordingFetch();

    const result = await publish({ fetchImpl });

    expect(result.permalink).toMatch(/^https:\/\/www\.threads\.net\/@ada\.writes\/post\/[A-Za-z0-9_-]{11}$/);
    const published = await publishedOn(sandbox);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      id: result.platformPostId,
      userId: account.userId,
      text: 'Hello from Postbus',
      mediaUrls: [],
      mediaType: 'TEXT',
      containerId: result.containerId,
      permalink: result.permalink,
    });
    // the container was IN_PROGRESS at first, so the client polled until FINISHED before publishing
    const polls = calls.filter((c) => c.startsWith(`GET ${account.baseUrl}/${result.containerId}?`));
    expect(polls.length).toBeGreaterThan(1);
    expect(calls.filter((c) => c.includes('/threads_publish')).length).toBe(1);
  });

  test('when an image post is published, then the image URL is recorded with it', async () => {
    const image = 'https://cdn.example.com/media/cat.jpg?sig=abc';

    const result = await publish({ text: 'A cat', mediaUrls: [image] });

    const [item] = await publishedOn(sandbox);
    expect(item).toMatchObject({ id: result.platformPostId, mediaType: 'IMAGE', mediaUrls: [image], text: 'A cat' });
  });

  test('when a single .mp4 is published, then it goes out as a VIDEO post', async () => {
    await publish({ text: '', mediaUrls: ['https://cdn.example.com/clip.mp4'] });

    const [item] = await publishedOn(sandbox);
    expect(item).toMatchObject({ mediaType: 'VIDEO', text: '' });
  });

  test('when several media are published, then one CAROUSEL post carries them all in order', async () => {
    const media = ['https://cdn.example.com/1.jpg', 'https://cdn.example.com/2.mp4', 'https://cdn.example.com/3.png'];

    const result = await publish({ text: 'Three things', mediaUrls: media });

    const published = await publishedOn(sandbox);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      id: result.platformPostId,
      mediaType: 'CAROUSEL',
      mediaUrls: media,
      text: 'Three things',
    });
  });

  test('when Threads fails to process the media, then the error is permanent, readable, and nothing is published', async () => {
    const err = await errorOf(() => publish({ mediaUrls: ['https://cdn.example.com/fail-processing.mp4'] }));

    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ platform: 'threads', transient: false, code: 'FAILED_DOWNLOADING_VIDEO' });
    expect(err.message).toBe(
      'Threads could not download the media; make sure the media URL is public and serves the file itself, not a web page.',
    );
    expect(err.containerId).toEqual(expect.any(String));
    expect(await publishedOn(sandbox)).toHaveLength(0);
  });

  test('when one carousel item fails processing, then the whole post fails permanently and nothing is published', async () => {
    const err = await errorOf(() =>
      publish({
        mediaUrls: ['https://cdn.example.com/ok.jpg', 'https://cdn.example.com/fail-processing-INVALID_DURATION.mp4'],
      }),
    );

    expect(err).toMatchObject({ transient: false, code: 'INVALID_DURATION' });
    expect(err.message).toMatch(/duration/);
    expect(await publishedOn(sandbox)).toHaveLength(0);
  });

  test('when the publish call answers 500, then the error is transient, the outcome unknown, and the container can be resumed once', async () => {
    await injectFault(sandbox, { mode: 'error', status: 500 });

    const err = await errorOf(() => publish());

    expect(err).toMatchObject({ transient: true, status: 500, outcomeUnknown: true });
    expect(err.message).toMatch(/temporary problem.*tried again/);
    expect(await publishedOn(sandbox)).toHaveLength(0);

    const api = { baseUrl: account.baseUrl, accessToken: account.accessToken };
    const state = await getThreadsContainerStatus({ ...api, containerId: err.containerId });
    expect(state).toMatchObject({ status: 'FINISHED', reason: null });
    const resumed = await publishThreadsContainer({ ...api, userId: account.userId, containerId: err.containerId });
    expect(resumed.permalink).toMatch(/^https:\/\/www\.threads\.net\//);
    expect(await publishedOn(sandbox)).toHaveLength(1);
  });

  test('when Threads throttles with HTTP 429 and code 4, then the error is transient and not an unknown outcome', async () => {
    await injectFault(sandbox, { mode: 'throttle', code: 4 });

    const err = await errorOf(() => publish());

    expect(err).toMatchObject({ transient: true, status: 429, code: 4, outcomeUnknown: false });
    expect(err.message).toBe(
      'Threads is limiting how often this app may call it; publishing will be tried again later.',
    );
    expect(await publishedOn(sandbox)).toHaveLength(0);
  });

  test('when a BUC throttle (80002) says when access returns, then retryAfterMs carries it', async () => {
    await injectFault(sandbox, { mode: 'throttle', code: 80002, status: 400, operation: 'create' });

    const err = await errorOf(() => publish());

    expect(err).toMatchObject({ transient: true, code: 80002, retryAfterMs: 60_000 });
  });

  test('when the publish call is refused with code 100, then the error is permanent and says why', async () => {
    await injectFault(sandbox, {
      mode: 'error',
      code: 100,
      message: '(#100) The post contains content that is not allowed.',
    });

    const err = await errorOf(() => publish());

    expect(err).toMatchObject({ transient: false, code: 100, status: 400 });
    expect(err.message).toBe('Threads refused the post: The post contains content that is not allowed.');
  });

  test('when the access token is unknown, then the error is permanent and asks to reconnect', async () => {
    const err = await errorOf(() => publish({ accessToken: 'THAAnot-a-real-token' }));

    expect(err).toMatchObject({ transient: false, code: 190, status: 401 });
    expect(err.message).toBe(THREADS_TOKEN_REASON);
    expect(err.message).toBe('The Threads access token is invalid or expired; reconnect the profile');
  });

  test('when the user revoked the token, then the error is permanent and asks to reconnect', async () => {
    await control(sandbox, 'POST', `/users/${account.userId}/revoke`);

    const err = await errorOf(() => publish());

    expect(err).toMatchObject({ transient: false, code: 190, subcode: 460, status: 400 });
    expect(err.message).toBe(THREADS_TOKEN_REASON);
  });

  test('when the text is over 500 characters, then the client refuses it before calling Threads', async () => {
    const { calls, fetchImpl } = recordingFetch();

    const err = await errorOf(() => publish({ text: 'a'.repeat(THREADS_TEXT_MAX + 1), fetchImpl }));

    expect(err).toMatchObject({ transient: false, code: 'text_too_long' });
    expect(err.message).toMatch(/501 characters.*at most 500/);
    expect(calls).toHaveLength(0);
  });

  test('when an emoji pushes the text past 500, then it is refused, and exactly 500 is accepted', async () => {
    const err = await errorOf(() => publish({ text: `${'a'.repeat(497)}👍` }));
    expect(err).toMatchObject({ code: 'text_too_long' });

    await publish({ text: `${'a'.repeat(496)}👍` });
    expect(await publishedOn(sandbox)).toHaveLength(1);
  });

  test('when a client sends text over 500 anyway, then the sandbox refuses the container with a readable reason', async () => {
    const err = await errorOf(() =>
      createThreadsContainer(
        { baseUrl: account.baseUrl, accessToken: account.accessToken, userId: account.userId },
        { media_type: 'TEXT', text: 'b'.repeat(501) },
      ),
    );

    expect(err).toMatchObject({ transient: false, code: 100, status: 400 });
    expect(err.message).toBe(
      'Threads refused the post: The text is 501 characters long; posts can be at most 500 characters.',
    );
  });

  test('when the answer to the publish call is lost, then the error says the outcome is unknown and the status shows PUBLISHED', async () => {
    await injectFault(sandbox, { mode: 'timeout' });

    const err = await errorOf(() => publish({ timeoutMs: 300 }));

    expect(err).toMatchObject({ transient: true, code: 'timeout', outcomeUnknown: true });
    const state = await getThreadsContainerStatus({
      baseUrl: account.baseUrl,
      accessToken: account.accessToken,
      containerId: err.containerId,
    });
    expect(state.status).toBe('PUBLISHED');
    expect(await publishedOn(sandbox)).toHaveLength(1);
  });

  test('when a container is published a second time, then Threads refuses and nothing is published twice', async () => {
    const first = await publish();

    const err = await errorOf(() =>
      publishThreadsContainer({
        baseUrl: account.baseUrl,
        accessToken: account.accessToken,
        userId: account.userId,
        containerId: first.containerId,
      }),
    );

    expect(err).toMatchObject({ transient: false, code: 100 });
    expect(err.message).toBe('Threads refused the post: This post has already been published.');
    expect(await publishedOn(sandbox)).toHaveLength(1);
  });

  test('when onContainerReady is given, then it receives the container before the publish call', async () => {
    const seen: string[] = [];

    const result = await publish({
      onContainerReady: async (id) => {
        seen.push(id);
        expect(await publishedOn(sandbox)).toHaveLength(0);
      },
    });

    expect(seen).toEqual([result.containerId]);
  });

  test('when the container stays IN_PROGRESS past maxPolls, then the error is transient and nothing is published', async () => {
    await control(sandbox, 'POST', '/settings', { processingDelayMs: 60_000 });

    const err = await errorOf(() => publish({ maxPolls: 3 }));

    expect(err).toMatchObject({ transient: true, code: 'processing_timeout' });
    expect(err.message).toMatch(/still processing/);
    expect(await publishedOn(sandbox)).toHaveLength(0);
  });
});
