import { FACEBOOK_TOKEN_REASON, facebookErrorFromResponse } from '../src';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  facebookErrorFromResponse({ status, headers: new Headers(headers), body });
const meta = (code: number, extra: Record<string, unknown> = {}) => ({
  error: { message: `(#${code}) Something`, type: 'OAuthException', code, ...extra },
});

describe('mapping Facebook error answers', () => {
  test.each([
    ['code 2 (service down)', 500, meta(2)],
    ['code 32 (page throttled)', 400, meta(32)],
    ['code 613 (hourly limit)', 400, meta(613)],
    ['code 80001 (Pages BUC)', 400, meta(80001)],
    ['is_transient=true', 400, meta(100, { is_transient: true })],
    ['HTTP 502 as HTML', 502, '<html>Bad gateway</html>'],
  ])('when Facebook answers %s, then the error is transient', (_what, status, body) => {
    expect(answer(status, body)).toMatchObject({ platform: 'facebook', transient: true });
  });

  test.each([
    ['code 200 (permission)', meta(200), /pages_manage_posts/],
    ['code 368 (policy block)', meta(368), /blocked this Page.*few hours/],
    ['code 506 (duplicate)', meta(506), /duplicate.*change the text/],
    ['code 1609005 (link not scraped)', meta(1609005), /could not read the link/],
    [
      'the reels limit',
      meta(9, { message: '(#9) The Page has reached the limit of 30 reels published through the API in 24 hours.' }),
      /30 API-published reels/,
    ],
    ['code 100 without details', { error: { code: 100 } }, /without saying why/],
  ])('when Facebook answers %s, then the error is permanent with a readable reason', (_what, body, reason) => {
    const err = answer(400, body);
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(reason);
  });

  test('when the Page token is expired (190/463), then it is reported refused so it can be refreshed once', () => {
    expect(answer(400, meta(190, { error_subcode: 463 }))).toMatchObject({
      tokenRejected: true,
      transient: false,
      message: FACEBOOK_TOKEN_REASON,
      subcode: 463,
    });
  });

  test('when the BUC header estimates minutes to regain access, then retryAfterMs follows it', () => {
    const buc = JSON.stringify({ p: [{ type: 'pages', estimated_time_to_regain_access: 3 }] });
    expect(answer(400, meta(80001), { 'x-business-use-case-usage': buc }).retryAfterMs).toBe(180_000);
  });
});
