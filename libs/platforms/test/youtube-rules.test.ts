import { YOUTUBE_TOKEN_REASON, msUntilPacificMidnight, youtubeErrorFromResponse, youtubeMetadata } from '../src';

const google = (code: number, reason: string, message = 'Something') => ({
  error: { code, message, errors: [{ message, domain: 'youtube.video', reason }] },
});
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  youtubeErrorFromResponse(status, new Headers(headers), body, Date.parse('2026-05-01T20:00:00Z'));

describe('mapping YouTube error answers', () => {
  test('when the project quota is exceeded, then the error is transient and waits for midnight Pacific', () => {
    const err = answer(403, google(403, 'quotaExceeded'));
    expect(err).toMatchObject({ transient: true, code: 'quotaExceeded' });
    // 20:00 UTC is 13:00 in Los Angeles (PDT): 11 hours to midnight
    expect(err.retryAfterMs).toBe(11 * 3_600_000);
  });

  test.each([
    ['uploadLimitExceeded', 400, /own limit of uploads.*tomorrow/],
    ['forbidden', 403, /does not allow this channel/],
    ['invalidTitle', 400, /title/],
    ['invalidImage', 400, /thumbnail/],
  ])('when YouTube answers %s, then the error is permanent with a readable reason', (reason, status, message) => {
    const err = answer(status, google(status, reason));
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(message);
  });

  test.each([
    ['rateLimitExceeded', 403],
    ['backendError', 500],
    ['unknownReason', 503],
  ])('when YouTube answers %s (%i), then the error is transient', (reason, status) => {
    expect(answer(status, google(status, reason)).transient).toBe(true);
  });

  test('when the token is refused (401), then it is reported refused so it can be refreshed once', () => {
    expect(answer(401, google(401, 'authError'))).toMatchObject({
      tokenRejected: true,
      transient: false,
      message: YOUTUBE_TOKEN_REASON,
    });
  });

  test('when the time is 23:59:30 in Los Angeles, then the wait is at least a minute', () => {
    expect(msUntilPacificMidnight(Date.parse('2026-01-15T07:59:30Z'))).toBe(60_000);
  });
});

describe('YouTube video metadata', () => {
  test('when nothing is asked, then the default privacy is used and made-for-kids is declared false', () => {
    expect(youtubeMetadata({ title: 'T', caption: 'D' }, {}, 'public')).toEqual({
      snippet: { title: 'T', description: 'D', categoryId: '22' },
      status: { privacyStatus: 'public', selfDeclaredMadeForKids: false },
    });
  });

  test.each([
    [{ title: null, caption: '' }, {}, /need a title/],
    [{ title: 'a <b>', caption: '' }, {}, /cannot contain < or >/],
    [{ title: 'T', caption: 'é'.repeat(2501) }, {}, /5002 bytes long.*5000 bytes/],
    [{ title: 'T', caption: '' }, { privacyStatus: 'friends' }, /public, unlisted or private/],
    [
      { title: 'T', caption: '' },
      { privacyStatus: 'public', publishAt: '2030-01-01T00:00:00Z' },
      /needs privacyStatus private/,
    ],
  ])('when the post is %j with %j, then it is refused before any call', (text, settings, reason) => {
    expect(() => youtubeMetadata(text, settings, 'public')).toThrow(reason);
  });
});
