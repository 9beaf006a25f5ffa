import { pollDelayMs, retryDelayMs } from '../src/scheduling/backoff';
import { parseRateLimitRules } from '../src/rate-limits/rate-limit-rules';
import { gaveUpReason, stillProcessingReason } from '../src/publishing/failure-reasons';

describe('retry backoff', () => {
  const policy = { baseMs: 1000, maxMs: 60_000 };

  test.each([
    [1, 0, 500],
    [1, 1, 1000],
    [2, 0, 1000],
    [3, 1, 4000],
    [10, 1, 60_000],
  ])('when retry %i draws %d, then it waits %i ms (exponential, equal jitter, capped)', (attempt, random, expected) => {
    expect(retryDelayMs(policy, attempt, undefined, () => random)).toBe(expected);
  });

  test('when the platform asks for longer than the backoff, then Retry-After wins', () => {
    expect(retryDelayMs(policy, 1, 30_000, () => 0.5)).toBe(30_000);
  });

  test('when the platform asks for less than the backoff, then the backoff stands', () => {
    expect(retryDelayMs(policy, 3, 100, () => 0)).toBe(2000);
  });

  test('when Retry-After is absurdly long, then it is capped at a day', () => {
    expect(retryDelayMs(policy, 1, 10 * 86_400_000, () => 0)).toBe(86_400_000);
  });

  test('when media keeps processing, then checks grow by half up to the maximum', () => {
    expect([0, 1, 2, 3, 20].map((check) => pollDelayMs(1000, 30_000, check))).toEqual([1000, 1500, 2250, 3375, 30_000]);
  });
});

describe('PUBLISHER_RATE_LIMITS', () => {
  test('when platforms and kinds are listed with one or more windows, then each becomes its rules', () => {
    expect(parseRateLimitRules('instagram=100/24h, facebook.reels=30/1d,tiktok=6/1m+15/24h,threads=5/30s')).toEqual({
      instagram: [{ limit: 100, windowMs: 86_400_000 }],
      'facebook.reels': [{ limit: 30, windowMs: 86_400_000 }],
      tiktok: [
        { limit: 6, windowMs: 60_000 },
        { limit: 15, windowMs: 86_400_000 },
      ],
      threads: [{ limit: 5, windowMs: 30_000 }],
    });
  });

  test.each(['instagram', 'instagram=100', 'instagram=0/1h', 'instagram=10/1w', 'Instagram=1/1h'])(
    'when the value is %j, then it is refused',
    (raw) => {
      expect(() => parseRateLimitRules(raw)).toThrow();
    },
  );
});

describe('reasons the pipeline gives', () => {
  test('when the last attempt failed transiently, then the reason drops "will be tried again" and says it gave up', () => {
    expect(gaveUpReason('Threads had a temporary problem; publishing will be tried again.', 5)).toBe(
      'Threads had a temporary problem. Postbus gave up after 5 attempts; publish the post again later.',
    );
    expect(
      gaveUpReason(
        'TikTok is limiting how often this account may be called; publishing will be tried again shortly.',
        1,
      ),
    ).toBe(
      'TikTok is limiting how often this account may be called. Postbus gave up after 1 attempt; publish the post again later.',
    );
  });

  test('when processing outlasted the ceiling, then the reason says how long in seconds or minutes', () => {
    expect(stillProcessingReason('Instagram was still processing the video', 1500)).toMatch(
      /^Instagram was still processing the video after 2 seconds, so Postbus stopped waiting/,
    );
    expect(stillProcessingReason('TikTok was still processing the post', 1_800_000)).toMatch(/after 30 minutes/);
  });
});
