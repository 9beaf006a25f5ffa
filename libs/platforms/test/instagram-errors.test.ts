import {
  PlatformError,
  instagramContainerErrorReason,
  instagramErrorFromResponse,
  planInstagramPost,
  INSTAGRAM_TOKEN_REASON,
} from '../src';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  instagramErrorFromResponse({ status, headers: new Headers(headers), body });
const meta = (code: number, subcode?: number, extra: Record<string, unknown> = {}) => ({
  error: {
    message: `(#${code}) Something`,
    type: 'OAuthException',
    code,
    ...(subcode && { error_subcode: subcode }),
    ...extra,
  },
});

describe('mapping Instagram error answers', () => {
  test.each([
    ['2207001 (server error)', 400, meta(-1, 2207001)],
    ['2207003 (download timed out)', 400, meta(-2, 2207003)],
    ['2207008 (container not ready)', 400, meta(24, 2207008)],
    ['2207027 (not ready to publish)', 400, meta(9007, 2207027)],
    ['2207032 (creation failed)', 400, meta(-1, 2207032)],
    ['code 4 (throttled)', 400, meta(4)],
    ['code 80002 (BUC throttled)', 400, meta(80002)],
    ['HTTP 503 without a body', 503, ''],
  ])('when Instagram answers %s, then the error is transient', (_what, status, body) => {
    const err = answer(status, body);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ platform: 'instagram', transient: true, tokenRejected: false });
  });

  test.each([
    ['2207004 (image over 8 MB)', meta(36000, 2207004), /larger than the 8 MB/],
    ['2207026 (video format)', meta(352, 2207026), /H\.264 MP4/],
    ['2207051 (spam protection)', meta(4, 2207051), /wait a few hours/],
    [
      '2207052 (media not fetched)',
      meta(9004, 2207052),
      /^Instagram could not fetch the media: the link must be public/,
    ],
    ['2207057 (cover frame out of range), although code 1 alone is retried', meta(1, 2207057), /thumbOffsetMs/],
    ['code 10 (permission)', meta(10), /content publishing permission/],
    [
      'code 100 with a user message',
      meta(100, undefined, { error_user_msg: 'Caption contains a banned word' }),
      'Instagram refused the post: Caption contains a banned word.',
    ],
  ])('when Instagram answers %s, then the error is permanent with a readable reason', (_what, body, reason) => {
    const err = answer(400, body);
    expect(err.transient).toBe(false);
    if (typeof reason === 'string') expect(err.message).toBe(reason);
    else expect(err.message).toMatch(reason);
    expect(err.message).not.toMatch(/^\d+$/);
  });

  test.each([
    ['code 190 subcode 463 (expired)', 400, meta(190, 463)],
    ['code 190 on HTTP 401', 401, meta(190)],
    ['code 102 (session)', 400, meta(102)],
  ])(
    'when Instagram answers %s, then the token is reported refused (refreshable) and the error is not retried as such',
    (_what, status, body) => {
      expect(answer(status, body)).toMatchObject({
        tokenRejected: true,
        transient: false,
        message: INSTAGRAM_TOKEN_REASON,
      });
    },
  );

  test('when Retry-After is sent, then the error carries it', () => {
    expect(answer(429, meta(4), { 'retry-after': '12' }).retryAfterMs).toBe(12_000);
  });

  test.each([
    ['9004/2207052', /could not fetch the media/, false],
    ['Error: -2/2207003', /timed out downloading/, true],
    ['Media upload has failed with error code 2207026', /format/, false],
    ['something new', /gave no usable reason/, false],
  ])(
    'when a container ends ERROR with status %j, then the reason is read from the subcode in it',
    (status, reason, transient) => {
      const got = instagramContainerErrorReason(status);
      expect(got.reason).toMatch(reason);
      expect(got.transient).toBe(transient);
    },
  );
});

describe('planning Instagram containers', () => {
  test('when there is no media, then it is refused', () => {
    expect(() => planInstagramPost({ caption: 'x', mediaUrls: [], kinds: [] })).toThrow(
      /needs at least one image or video/,
    );
  });

  test('when there are 11 media, then it is refused (a carousel holds 10)', () => {
    const urls = Array.from({ length: 11 }, (_, i) => `https://m/${i}.jpg`);
    expect(() => planInstagramPost({ caption: '', mediaUrls: urls, kinds: urls.map(() => 'image') })).toThrow(
      /at most 10/,
    );
  });

  test('when the caption mentions 21 accounts, then it is refused', () => {
    const caption = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ');
    expect(() => planInstagramPost({ caption, mediaUrls: ['https://m/a.jpg'], kinds: ['image'] })).toThrow(
      /21 accounts.*at most 20/,
    );
  });

  test('when a reel asks not to be shared to the feed, then share_to_feed is false', () => {
    expect(
      planInstagramPost({ caption: 'c', mediaUrls: ['https://m/a.mp4'], kinds: ['video'], shareToFeed: false }),
    ).toEqual({
      kind: 'single',
      params: { media_type: 'REELS', video_url: 'https://m/a.mp4', caption: 'c', share_to_feed: 'false' },
    });
  });
});
