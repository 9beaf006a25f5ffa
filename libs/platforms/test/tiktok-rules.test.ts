import {
  tiktokChunkPlan,
  tiktokErrorFromResponse,
  tiktokPostInfo,
  tiktokPublishFailure,
  TIKTOK_TOKEN_REASON,
  type TikTokCreatorInfo,
} from '../src';

const envelope = (code: string, message = '') => ({ data: {}, error: { code, message, log_id: 'x' } });
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  tiktokErrorFromResponse(status, new Headers(headers), body);

const creator: TikTokCreatorInfo = {
  username: 'ada',
  nickname: 'Ada',
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: true,
  maxVideoPostDurationSec: 600,
};

describe('mapping TikTok error answers', () => {
  test.each([
    ['rate_limit_exceeded', 429, 'rate_limit_exceeded'],
    ['internal_error', 500, 'internal_error'],
    ['spam_risk_too_many_pending_share', 403, 'spam_risk_too_many_pending_share'],
    ['an unknown code on a 503', 503, 'something_new'],
  ])('when TikTok answers %s, then the error is transient', (_what, status, code) => {
    expect(answer(status, envelope(code))).toMatchObject({ platform: 'tiktok', transient: true, code });
  });

  test.each([
    ['spam_risk_too_many_posts', 403, /daily limit.*tomorrow/],
    ['spam_risk_user_banned_from_posting', 403, /barred this account/],
    ['unaudited_client_can_only_post_to_private_accounts', 403, /SELF_ONLY and make the TikTok account private/],
    ['url_ownership_unverified', 403, /domain is not verified/],
    ['reached_active_user_cap', 403, /daily limit of accounts/],
    ['scope_not_authorized', 401, /video\.publish scope/],
  ])(
    'when TikTok answers %s, then the error is permanent with a reason a person can act on',
    (code, status, reason) => {
      const err = answer(status, envelope(code));
      expect(err.transient).toBe(false);
      expect(err.message).toMatch(reason);
    },
  );

  test('when a business error arrives with HTTP 200, then the body code decides', () => {
    expect(answer(200, envelope('invalid_param', 'chunk_size is invalid'))).toMatchObject({
      transient: false,
      message: 'TikTok refused the post: chunk_size is invalid.',
    });
  });

  test('when the token is invalid, then it is reported refused so it can be refreshed once', () => {
    expect(answer(401, envelope('access_token_invalid'))).toMatchObject({
      tokenRejected: true,
      transient: false,
      message: TIKTOK_TOKEN_REASON,
    });
  });

  test('when rate_limit_exceeded comes without Retry-After, then a minute is waited (the per-token window)', () => {
    expect(answer(429, envelope('rate_limit_exceeded')).retryAfterMs).toBe(60_000);
    expect(answer(429, envelope('rate_limit_exceeded'), { 'retry-after': '5' }).retryAfterMs).toBe(5000);
  });

  test.each([
    ['duration_check_failed', /video length/, false],
    ['picture_size_check_failed', /picture size/, false],
    ['internal', /internal error/, true],
    ['brand_new_reason', /brand_new_reason/, false],
  ])('when a publish ends FAILED with %s, then the reason is readable', (failReason, reason, transient) => {
    expect(tiktokPublishFailure(failReason, 'pub_1')).toMatchObject({
      transient,
      message: expect.stringMatching(reason),
      containerId: 'pub_1',
    });
  });
});

describe('TikTok post_info from platformMeta.tiktok and creator_info', () => {
  test('when the creator locked stitches, then disable_stitch is forced on whatever the post asked', () => {
    expect(
      tiktokPostInfo(
        'video',
        { title: 'T', caption: 'Caption' },
        { privacyLevel: 'PUBLIC_TO_EVERYONE', disableStitch: false },
        creator,
      ),
    ).toEqual({
      title: 'Caption',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      brand_content_toggle: false,
      brand_organic_toggle: false,
      disable_duet: false,
      disable_stitch: true,
    });
  });

  test('when the privacy level is not among the creator options, then it is refused listing them', () => {
    expect(() =>
      tiktokPostInfo('video', { title: 'T', caption: '' }, { privacyLevel: 'FOLLOWER_OF_CREATOR' }, creator),
    ).toThrow(/choose one of PUBLIC_TO_EVERYONE, SELF_ONLY/);
  });

  test('when branded content is private, then it is refused', () => {
    expect(() =>
      tiktokPostInfo(
        'video',
        { title: 'T', caption: '' },
        { privacyLevel: 'SELF_ONLY', commercialContentDisclosure: true, brandContentOptIn: true },
        creator,
      ),
    ).toThrow(/Branded content cannot be posted privately/);
  });

  test('when commercial content is disclosed without an opt-in, then it is refused', () => {
    expect(() =>
      tiktokPostInfo(
        'video',
        { title: 'T', caption: '' },
        { privacyLevel: 'SELF_ONLY', commercialContentDisclosure: true },
        creator,
      ),
    ).toThrow(/opts into neither/);
  });

  test('when brand toggles are set without disclosure, then they stay off', () => {
    expect(
      tiktokPostInfo(
        'video',
        { title: 'T', caption: '' },
        { privacyLevel: 'SELF_ONLY', brandOrganicOptIn: true },
        creator,
      ),
    ).toMatchObject({ brand_organic_toggle: false, title: 'T' });
  });

  test('when a photo title is longer than 90, then it is refused', () => {
    expect(() =>
      tiktokPostInfo('photo', { title: 'x'.repeat(91), caption: '' }, { privacyLevel: 'SELF_ONLY' }, creator),
    ).toThrow(/at most 90/);
  });
});

describe('FILE_UPLOAD chunk plan', () => {
  test.each([
    [4_000_000, 10_000_000, { chunkSize: 4_000_000, totalChunkCount: 1 }],
    [50_000_123, 10_000_000, { chunkSize: 10_000_000, totalChunkCount: 5 }],
    [59_999_999, 10_000_000, { chunkSize: 10_000_000, totalChunkCount: 5 }],
    [200_000, 65_536, { chunkSize: 65_536, totalChunkCount: 3 }],
  ])(
    'when the video has %i bytes and chunks are %i, then the plan is %j (the remainder rides in the last chunk)',
    (size, chunk, plan) => {
      expect(tiktokChunkPlan(size, chunk)).toEqual(plan);
    },
  );
});
