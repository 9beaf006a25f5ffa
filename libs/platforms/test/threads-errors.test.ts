import { PlatformError, THREADS_TOKEN_REASON, threadsContainerErrorReason, threadsErrorFromResponse } from '../src';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return threadsErrorFromResponse({ status, headers: new Headers(headers), body });
}

function meta(code: number, extra: Record<string, unknown> = {}) {
  return { error: { message: `(#${code}) Something`, type: 'OAuthException', code, fbtrace_id: 'abc', ...extra } };
}

/** A reason is a sentence with words, not a code. */
function expectReadable(err: PlatformError) {
  expect(err.message).toMatch(/^[A-Z][^]*[a-z]{3,}[^]*\w[.)]?$/);
  expect(err.message).not.toMatch(/^\(?#?\d+\)?$/);
  expect(err.message.split(' ').length).toBeGreaterThan(5);
}

describe('mapping Threads error answers', () => {
  test.each([
    ['code 1 (unknown, possibly transient)', 400, meta(1)],
    ['code 2 (service down)', 500, meta(2)],
    ['code 4 (app throttled)', 400, meta(4)],
    ['code 17 (user throttled)', 400, meta(17)],
    ['code 32 (page throttled)', 400, meta(32)],
    ['code 341 (application limit)', 400, meta(341)],
    ['code 613 (hourly limit)', 400, meta(613)],
    ['code 80001 (BUC pages)', 400, meta(80001)],
    ['code 80002 (BUC instagram)', 400, meta(80002)],
    ['is_transient=true on another code', 400, meta(100, { is_transient: true })],
    ['HTTP 429 without a body', 429, ''],
    ['HTTP 502 from a proxy, as HTML', 502, '<html>Bad gateway</html>'],
    ['HTTP 503 with a Meta body', 503, meta(100)],
    ['code 24/4279009 (container not visible yet)', 400, meta(24, { error_subcode: 4279009 })],
  ])('when Threads answers %s, then the error is transient', (_what, status, body) => {
    const err = answer(status, body);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.transient).toBe(true);
    expect(err.status).toBe(status);
    expectReadable(err);
  });

  test.each([
    ['code 190', 401, meta(190), THREADS_TOKEN_REASON],
    ['code 190 subcode 463 (expired)', 400, meta(190, { error_subcode: 463 }), THREADS_TOKEN_REASON],
    ['code 102 (session)', 400, meta(102), THREADS_TOKEN_REASON],
    ['code 10 (permission)', 403, meta(10), /reconnect the profile and grant publishing access/],
    ['code 200 (permission)', 400, meta(200), /threads_content_publish permission/],
    ['code 299 (permission)', 400, meta(299), /reconnect the profile/],
    ['code 3 (capability)', 400, meta(3), /operator/],
    ['code 9 (publishing limit)', 400, meta(9), /limit of API-published posts.*later/],
    ['code 368 (policy block)', 400, meta(368), /blocked.*few hours/],
    ['code 506 (duplicate)', 400, meta(506), /duplicate.*change the text/],
    [
      'code 100 with a user message',
      400,
      meta(100, { error_user_msg: 'The image is too large' }),
      'Threads refused the post: The image is too large.',
    ],
    [
      'code 100 with only a message',
      400,
      meta(100, { message: '(#100) Param image_url is required' }),
      'Threads refused the post: Param image_url is required.',
    ],
    ['the link limit', 400, meta(100, { message: '(#100) THREADS_API__LINK_LIMIT_EXCEEDED' }), /more than 5 links/],
    ['code 100 without any message', 400, { error: { code: 100 } }, /without saying why.*check/],
    ['HTTP 404 with HTML', 404, '<html>Not found</html>', /base URL/],
  ])(
    'when Threads answers %s, then the error is permanent with a reason a person can act on',
    (_what, status, body, reason) => {
      const err = answer(status, body);
      expect(err.transient).toBe(false);
      if (typeof reason === 'string') expect(err.message).toBe(reason);
      else expect(err.message).toMatch(reason);
      expectReadable(err);
    },
  );

  test('when the code and subcode come back, then they are kept for logs', () => {
    const err = answer(400, meta(190, { error_subcode: 460 }));
    expect(err).toMatchObject({ code: 190, subcode: 460, status: 400, platform: 'threads' });
  });

  test('when Retry-After is sent, then retryAfterMs follows it', () => {
    expect(answer(429, '', { 'retry-after': '7' }).retryAfterMs).toBe(7000);
  });

  test('when X-Business-Use-Case-Usage estimates minutes to regain access, then retryAfterMs takes the largest', () => {
    const buc = JSON.stringify({
      a: [{ estimated_time_to_regain_access: 2 }],
      b: [{ estimated_time_to_regain_access: 5 }],
    });
    expect(answer(400, meta(80002), { 'x-business-use-case-usage': buc }).retryAfterMs).toBe(300_000);
  });

  test.each([
    'FAILED_DOWNLOADING_VIDEO',
    'FAILED_PROCESSING_AUDIO',
    'FAILED_PROCESSING_VIDEO',
    'INVALID_ASPEC_RATIO',
    'INVALID_BIT_RATE',
    'INVALID_DURATION',
    'INVALID_FRAME_RATE',
    'INVALID_AUDIO_CHANNELS',
    'INVALID_AUDIO_CHANNEL_LAYOUT',
    'UNKNOWN',
    'SOMETHING_NEW',
  ])('when a container fails with %s, then the reason is a sentence without the code', (errorMessage) => {
    const reason = threadsContainerErrorReason(errorMessage);
    expect(reason).not.toContain(errorMessage);
    expect(reason).toMatch(/^Threads [^]*;[^]*\w\.$/);
  });
});
