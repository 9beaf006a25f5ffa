import { disabledReason, failedLongEnough, nextAttemptAfterFailure } from '../src/deliveries/delivery-policy';
import { DEFAULT_RETRY_SCHEDULE_MS, readConfig } from '../src/config';

const t0 = new Date('2025-03-01T12:00:00.000Z');
const policy = { retryScheduleMs: [5_000, 30_000, 120_000], disableAfterMs: 72 * 3600_000 };

describe('retry schedule', () => {
  test('when attempt n of the series fails, then the next one is schedule[n-1] after it, until the schedule runs out', () => {
    expect(nextAttemptAfterFailure(policy, 1, false, t0)?.toISOString()).toBe('2025-03-01T12:00:05.000Z');
    expect(nextAttemptAfterFailure(policy, 2, false, t0)?.toISOString()).toBe('2025-03-01T12:00:30.000Z');
    expect(nextAttemptAfterFailure(policy, 3, false, t0)?.toISOString()).toBe('2025-03-01T12:02:00.000Z');
    expect(nextAttemptAfterFailure(policy, 4, false, t0)).toBeNull();
  });

  test('when a manual retry fails, then nothing follows it', () => {
    expect(nextAttemptAfterFailure(policy, 1, true, t0)).toBeNull();
  });

  test('when nothing is configured, then at least 7 retries spread over about a day', () => {
    const config = readConfig({});
    expect(config.WEBHOOK_RETRY_SCHEDULE_MS).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(config.WEBHOOK_RETRY_SCHEDULE_MS.length).toBeGreaterThanOrEqual(7);
    const total = config.WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3600_000);
    expect(total).toBeLessThan(30 * 3600_000);
    expect([...config.WEBHOOK_RETRY_SCHEDULE_MS].sort((a, b) => a - b)).toEqual(config.WEBHOOK_RETRY_SCHEDULE_MS);
    expect(config.WEBHOOK_DISABLE_AFTER_HOURS).toBe(72);
    expect(config.WEBHOOKS_ALLOW_LOOPBACK).toBe(false);
  });

  test('when the schedule is configured in milliseconds, then it is read as given, and nonsense is refused at boot', () => {
    expect(readConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '10, 20,40' }).WEBHOOK_RETRY_SCHEDULE_MS).toEqual([10, 20, 40]);
    expect(() => readConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '10,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE_MS/);
    expect(() => readConfig({ WEBHOOK_DISABLE_AFTER_HOURS: '-1' })).toThrow(/WEBHOOK_DISABLE_AFTER_HOURS/);
    expect(() => readConfig({ POSTBUS_ENV: 'production', WEBHOOKS_ALLOW_LOOPBACK: 'true' })).toThrow(
      /WEBHOOKS_ALLOW_LOOPBACK/,
    );
  });
});

describe('disabling an endpoint', () => {
  test('when failures have lasted less than the limit, then the endpoint stays; at the limit, it is disabled', () => {
    expect(failedLongEnough(policy, t0, new Date(t0.getTime() + 71 * 3600_000))).toBe(false);
    expect(failedLongEnough(policy, t0, new Date(t0.getTime() + 72 * 3600_000))).toBe(true);
  });

  test('when it is disabled, then the reason says for how long, since when, the last error and how to resume', () => {
    const reason = disabledReason(policy, t0, 'HTTP 503');
    expect(reason).toContain('72 hours');
    expect(reason).toContain(t0.toISOString());
    expect(reason).toContain('HTTP 503');
    expect(reason).toContain('"enabled": true');
  });
});
