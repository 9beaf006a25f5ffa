import { statusOf, type ConnectionRequestRow } from '../src/connect/connection-request.repository';
import type { ProfileRow } from '../src/profiles/profile.repository';
import { isRefreshDue } from '../src/tokens/token-refresher';

const now = new Date('2026-03-01T12:00:00Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function profile(issuedOffsetMs: number, expiresOffsetMs: number | null): ProfileRow {
  return {
    token_refreshed_at: at(issuedOffsetMs),
    connected_at: at(-30 * DAY),
    token_expires_at: expiresOffsetMs === null ? null : at(expiresOffsetMs),
  } as ProfileRow;
}

describe('when a token is due for a refresh (15 minutes ahead, or a fifth of its lifetime)', () => {
  test.each([
    ['a 1-hour token issued 50 minutes ago', profile(-50 * 60_000, 10 * 60_000), true],
    ['a 1-hour token issued 30 minutes ago', profile(-30 * 60_000, 30 * 60_000), false],
    ['a 60-day token with 13 days left', profile(-47 * DAY, 13 * DAY), false],
    ['a 60-day token with 11 days left', profile(-49 * DAY, 11 * DAY), true],
    ['an expired token', profile(-2 * HOUR, -HOUR), true],
    ['a token without expiry (a Facebook Page token)', profile(-DAY, null), false],
  ])('when it is %s, then due is %s', (_what, row, due) => {
    expect(isRefreshDue(row, now, 900)).toBe(due);
  });
});

describe('Instagram and Threads refresh only tokens at least 24 hours old', () => {
  const aged = (platform: string, ageMs: number, lifeMs: number) => ({
    ...profile(-ageMs, lifeMs - ageMs),
    platform,
    connected_at: at(-ageMs),
  });

  test.each([
    ['an Instagram token 23 hours into a 25-hour life', false, aged('instagram', 23 * HOUR, 25 * HOUR)],
    ['an Instagram token 24 hours into a 25-hour life', true, aged('instagram', 24 * HOUR, 25 * HOUR)],
    ['a Threads token 1 hour into a 2-hour life', false, aged('threads', HOUR, 2 * HOUR)],
    ['a TikTok token 1 hour into a 2-hour life', true, aged('tiktok', HOUR, 2 * HOUR)],
  ])('when it is %s, then due is %s', (_what, due, row) => {
    expect(isRefreshDue(row, now, 3600)).toBe(due);
  });
});

describe('when a connection request is read', () => {
  const request = (r: Partial<ConnectionRequestRow>) =>
    ({ status: 'pending', opened_at: null, expires_at: at(15 * 60_000), ...r }) as ConnectionRequestRow;

  test.each([
    ['unused and within its lifetime', request({}), 'pending'],
    ['unused past its lifetime', request({ expires_at: at(-1) }), 'expired'],
    [
      'opened and within the sign-in window, even past the link lifetime',
      request({ opened_at: at(-5 * 60_000), expires_at: at(-60_000) }),
      'pending',
    ],
    ['opened longer ago than the sign-in window', request({ opened_at: at(-11 * 60_000) }), 'expired'],
    ['completed, past every deadline', request({ status: 'completed', expires_at: at(-DAY) }), 'completed'],
    ['failed', request({ status: 'failed' }), 'failed'],
  ])('when it is %s, then its status is %s', (_what, row, status) => {
    expect(statusOf(row, now)).toBe(status);
  });
});
