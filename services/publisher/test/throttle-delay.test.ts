import { throttleDelayMs, throttleKey, throttleKeysFor } from '../src/throttling/throttle-delay';
import { throttleGaveUpReason } from '../src/throttling/throttle-wait';

const MIN = 5 * 60_000;
const MAX = 60 * 60_000;
const policy = { minMs: MIN, maxMs: MAX, giveUpMs: 86_400_000 };
const noJitter = () => 0;
const rate = { kind: 'rate_limit', scope: 'account', windowMs: 3_600_000 } as const;

describe('how long a throttled post waits', () => {
  test('when the platform estimates when access returns, then that is the wait, whatever the strikes', () => {
    expect(throttleDelayMs({ ...rate, waitMs: 19 * 60_000 }, 1, policy, noJitter)).toBe(19 * 60_000);
    expect(throttleDelayMs({ ...rate, waitMs: 19 * 60_000 }, 4, policy, noJitter)).toBe(19 * 60_000);
  });

  test('when the estimate is under the floor or over the ceiling, then the wait is held within them', () => {
    expect(throttleDelayMs({ ...rate, waitMs: 1000 }, 1, policy, noJitter)).toBe(MIN);
    expect(throttleDelayMs({ ...rate, waitMs: 3 * 3_600_000 }, 1, policy, noJitter)).toBe(MAX);
  });

  test('when only usage percentages are known, then the wait is what the rolling window needs to bring usage under 90 %', () => {
    // 150 %: 40 % of the hour must pass (calls spread evenly) for usage to reach 90 %
    expect(throttleDelayMs({ ...rate, usagePct: 150 }, 1, policy, noJitter)).toBe(24 * 60_000);
    // 100 %: a tenth of the hour, above the floor
    expect(throttleDelayMs({ ...rate, usagePct: 100 }, 1, policy, noJitter)).toBe(6 * 60_000);
  });

  test('when throttles repeat, then the estimated wait doubles per strike up to the ceiling', () => {
    const waits = [1, 2, 3, 4, 5].map((strikes) => throttleDelayMs({ ...rate }, strikes, policy, noJitter));
    expect(waits).toEqual([MIN, 2 * MIN, 4 * MIN, 8 * MIN, MAX]);
  });

  test('when a publishing quota is full, then the wait is the window shared among its slots, doubled per strike', () => {
    const quota = { kind: 'publishing_quota', scope: 'account', windowMs: 86_400_000, quotaTotal: 100 } as const;
    expect(throttleDelayMs(quota, 1, policy, noJitter)).toBe(864_000);
    expect(throttleDelayMs(quota, 2, policy, noJitter)).toBe(1_728_000);
    expect(throttleDelayMs({ kind: 'publishing_quota', scope: 'account' }, 1, policy, noJitter)).toBe(MAX);
  });

  test('when jitter is drawn, then it adds at most a tenth and never passes the ceiling', () => {
    expect(throttleDelayMs({ ...rate }, 1, policy, () => 0.999)).toBeLessThanOrEqual(MIN * 1.1);
    expect(throttleDelayMs({ ...rate, waitMs: MAX }, 1, policy, () => 0.999)).toBe(MAX);
  });

  test('when a throttle is of the app, then every profile of the platform shares its key; an account throttle is the profile’s own', () => {
    expect(throttleKey('instagram', 'prf_1', { kind: 'rate_limit', scope: 'app' })).toBe('instagram:app');
    expect(throttleKey('instagram', 'prf_1', { kind: 'publishing_quota', scope: 'account' })).toBe(
      'instagram:prf_1:publishing_quota',
    );
    expect(throttleKeysFor('instagram', 'prf_1')).toEqual([
      'instagram:app',
      'instagram:prf_1:rate_limit',
      'instagram:prf_1:publishing_quota',
    ]);
  });

  test('when the post gives up waiting, then the reason keeps the platform’s sentence and says how long it waited', () => {
    expect(
      throttleGaveUpReason(
        'Instagram is limiting how often this account may be called; publishing will be tried again later.',
        86_400_000,
      ),
    ).toBe(
      "Instagram is limiting how often this account may be called. Postbus waited 24 hours for the platform's limit to lift, then stopped; publish the post again later.",
    );
  });
});
