import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PlatformError,
  callFacebook,
  callInstagram,
  callLinkedIn,
  callOAuth,
  callPinterest,
  callThreads,
  callTikTok,
  callX,
  insertYouTubeComment,
  listYouTubeVideo,
  pinterestOAuth,
  probeYouTubeUpload,
  putLinkedInPart,
} from '../src';
import { answerWithoutEnd } from './support/endless-answer';

const MIB = 1024 * 1024;

/**
 * A platform that answers without end: `/ok/…` with 200, `/fail/…` with 500, a JSON start and then
 * spaces for as long as anyone reads. Each answer records how many bytes went out before the
 * client hung up.
 */
let server: http.Server;
let origin: string;
const hangUps: Promise<number>[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(req.url?.startsWith('/fail/') ? 500 : 200, { 'content-type': 'application/json' });
    res.write('{"id":"1","padding":"');
    hangUps.push(answerWithoutEnd(res, Buffer.alloc(64 * 1024, 0x20)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The call's failure, once the platform's endless answer was given up on; and what the server sent before that. */
async function failureOf(call: Promise<unknown>): Promise<{ err: PlatformError; sent: number }> {
  const before = hangUps.length;
  const err = await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e as PlatformError,
  );
  expect(err).toBeInstanceOf(PlatformError);
  expect(hangUps.length).toBe(before + 1);
  return { err, sent: await hangUps[before] };
}

/** Well under what an endless answer would reach: at most the limit and what the sockets buffered. */
const BOUNDED = 32 * MIB;

describe('an endless answer from each platform family', () => {
  test('when X answers a post without end, then the call fails answer_too_large with an unknown outcome, and a read fails for good', async () => {
    const write = await failureOf(
      callX(
        { baseUrl: `${origin}/ok`, accessToken: 't' },
        { method: 'POST', path: '/2/tweets', json: {}, write: true },
      ),
    );
    const read = await failureOf(
      callX({ baseUrl: `${origin}/ok`, accessToken: 't' }, { method: 'GET', path: '/2/users/me' }),
    );

    expect(write.err).toMatchObject({ code: 'answer_too_large', transient: true, outcomeUnknown: true, status: 200 });
    expect(write.err.message).toBe(
      'X answered with more than 1 MiB (POST /2/tweets); Postbus reads at most that much of an answer and left it unread.',
    );
    expect(read.err).toMatchObject({ code: 'answer_too_large', transient: false, outcomeUnknown: false });
    expect(Math.max(write.sent, read.sent)).toBeLessThan(BOUNDED);
  });

  test('when X fails with an endless 500, then the error is the 500 read from the answer cut at the limit', async () => {
    const { err, sent } = await failureOf(
      callX({ baseUrl: `${origin}/fail`, accessToken: 't' }, { method: 'GET', path: '/2/users/me' }),
    );

    expect(err).toMatchObject({ status: 500, transient: true, code: 'HTTP 500' });
    expect(sent).toBeLessThan(BOUNDED);
  });

  test('when LinkedIn answers without end, then the call and an upload part both stop at the limit', async () => {
    const api = { baseUrl: `${origin}/ok`, accessToken: 't', version: '202610' };
    const call = await failureOf(callLinkedIn(api, { method: 'GET', path: '/rest/images/urn' }));
    const part = await failureOf(
      putLinkedInPart(
        api,
        { uploadUrl: `${origin}/fail/upload`, firstByte: 0, lastByte: 1, contentType: 'image/png', body: bytes(2) },
        {},
      ),
    );

    expect(call.err).toMatchObject({ platform: 'linkedin', code: 'answer_too_large', transient: false });
    expect(call.err.message).toMatch(/^LinkedIn answered with more than 1 MiB \(GET \/rest\/images\/urn\)/);
    expect(part.err).toMatchObject({ platform: 'linkedin', status: 500, transient: true });
    expect(Math.max(call.sent, part.sent)).toBeLessThan(BOUNDED);
  });

  test('when Pinterest answers a call or a token request without end, then each fails answer_too_large at its own limit', async () => {
    const call = await failureOf(
      callPinterest({ baseUrl: `${origin}/ok`, accessToken: 't' }, { method: 'GET', path: '/v5/user_account' }),
    );
    const oauth = pinterestOAuth({
      clientId: 'c',
      clientSecret: 's',
      authorizeUrl: 'https://www.pinterest.com/oauth/',
      apiUrl: `${origin}/ok`,
    });
    const token = await failureOf(oauth.exchangeCode({ code: 'x', redirectUri: 'https://app.example/cb' }));

    expect(call.err).toMatchObject({ platform: 'pinterest', code: 'answer_too_large', transient: false });
    expect(token.err).toMatchObject({ name: 'OAuthError', code: 'answer_too_large', transient: false });
    expect(token.err.message).toMatch(/more than 64 KiB/);
    expect(Math.max(call.sent, token.sent)).toBeLessThan(BOUNDED);
  });

  test('when TikTok answers without end, then the call fails answer_too_large', async () => {
    const { err, sent } = await failureOf(
      callTikTok({ baseUrl: `${origin}/ok`, accessToken: 't' }, '/v2/post/publish/status/fetch/', { publish_id: 'p' }),
    );

    expect(err).toMatchObject({ platform: 'tiktok', code: 'answer_too_large', transient: false, status: 200 });
    expect(sent).toBeLessThan(BOUNDED);
  });

  test.each([
    ['facebook', callFacebook],
    ['instagram', callInstagram],
    ['threads', callThreads],
  ] as const)(
    'when the %s Graph API answers without end, then the call fails answer_too_large in its name',
    async (platform, call) => {
      const { err, sent } = await failureOf(call({ baseUrl: `${origin}/ok/v26.0`, accessToken: 't' }, 'GET', ['123']));

      expect(err).toMatchObject({ platform, code: 'answer_too_large', transient: false, status: 200 });
      expect(err.message).toContain('(GET /ok/v26.0/123)');
      expect(sent).toBeLessThan(BOUNDED);
    },
  );

  test('when YouTube answers a read, a finished upload or a comment without end, then each fails answer_too_large as its call needs', async () => {
    const data = { apiUrl: `${origin}/ok`, accessToken: 't' };
    const read = await failureOf(listYouTubeVideo(data, 'status', 'v1'));
    const upload = await failureOf(
      probeYouTubeUpload(
        { uploadBaseUrl: `${origin}/ok`, accessToken: 't' },
        { sessionUrl: `${origin}/ok/s`, total: 9 },
      ),
    );
    const comment = await failureOf(insertYouTubeComment(data, { channelId: 'c', videoId: 'v', text: 'hi' }));

    expect(read.err).toMatchObject({ platform: 'youtube', code: 'answer_too_large', transient: false });
    expect(upload.err).toMatchObject({ code: 'answer_too_large', transient: true, outcomeUnknown: true });
    expect(comment.err).toMatchObject({ code: 'answer_too_large', transient: false, outcomeUnknown: true });
    expect(Math.max(read.sent, upload.sent, comment.sent)).toBeLessThan(BOUNDED);
  });

  test('when an OAuth endpoint answers without end, then the call fails answer_too_large as an OAuthError', async () => {
    const { err, sent } = await failureOf(
      callOAuth(
        {},
        { platform: 'threads', action: 'reading the profile', method: 'GET', url: `${origin}/ok/me`, bearer: 't' },
      ),
    );

    expect(err).toMatchObject({ name: 'OAuthError', platform: 'threads', code: 'answer_too_large', transient: false });
    expect(err.message).toMatch(/^Threads answered with more than 1 MiB \(reading the profile\)/);
    expect(sent).toBeLessThan(BOUNDED);
  });
});

function bytes(n: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(n));
      controller.close();
    },
  });
}
