import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_series_api');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const call = (method: string, path: string, body?: unknown, key = account.apiKey, headers?: Record<string, string>) =>
  api(system, path, { method, key, body, headers });
const threads = () => account.profiles.find((p) => p.platform === 'threads')!.id;
const expectCode = (r: { status: number; body: any }, status: number, code: string) => {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  expect(r.body.error).toEqual(expect.any(String));
};
/** Next year's 2 March, a Tuesday or not: the rule decides the days. */
const year = new Date().getUTCFullYear() + 1;
const weekly = (over: Record<string, unknown> = {}) => ({
  platforms: ['threads'],
  profileIds: [threads()],
  caption: 'weekly digest',
  scheduledTime: `${year}-03-01T09:00:00`,
  timezone: 'Europe/Berlin',
  recurrence: 'FREQ=WEEKLY;COUNT=4',
  ...over,
});

describe('recurring posts', () => {
  test('when a post is created with recurrence, then each occurrence is a post of its own at the local time, and the series lists them', async () => {
    const created = await call('POST', '/api/v1/posts', weekly(), undefined, undefined);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      seriesId: expect.stringMatching(/^ser_/),
      status: 'scheduled',
      timezone: 'Europe/Berlin',
    });
    expect(created.body.postIds).toHaveLength(1); // later weeks are beyond the 30-day horizon from now
    const series = await call('GET', `/api/v1/series/${created.body.seriesId}`);
    expect(series.status).toBe(200);
    expect(series.body).toMatchObject({
      id: created.body.seriesId,
      rule: 'FREQ=WEEKLY;COUNT=4',
      timezone: 'Europe/Berlin',
      status: 'active',
      template: { caption: 'weekly digest' },
    });
    expect(series.body.occurrences).toEqual([
      { index: 0, scheduledTime: created.body.scheduledTime, postIds: created.body.postIds, error: null },
    ]);
    const post = await call('GET', `/api/v1/posts/${created.body.postIds[0]}`);
    expect(post.body.scheduledTime).toBe(new Date(`${year}-03-01T08:00:00Z`).toISOString());
  });

  test('when the series is changed, then its posts not yet out and its template change; when cancelled, its posts are cancelled and it stops', async () => {
    const { body: created } = await call('POST', '/api/v1/posts', weekly({ caption: 'before' }));
    const changed = await call('PATCH', `/api/v1/series/${created.seriesId}`, { caption: 'after' });
    expect(changed.status).toBe(200);
    expect(changed.body.template.caption).toBe('after');
    expect((await call('GET', `/api/v1/posts/${created.postIds[0]}`)).body.caption).toBe('after');
    expectCode(
      await call('PATCH', `/api/v1/series/${created.seriesId}`, { caption: 'x'.repeat(3000) }),
      400,
      'validation_error',
    );
    expectCode(
      await call('PATCH', `/api/v1/series/${created.seriesId}`, { scheduledTime: 'tomorrow' }),
      400,
      'validation_error',
    );
    expect((await call('GET', `/api/v1/posts/${created.postIds[0]}`)).body.caption).toBe('after');

    const cancelled = await call('DELETE', `/api/v1/series/${created.seriesId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', nextTime: null });
    expect((await call('GET', `/api/v1/posts/${created.postIds[0]}`)).body.status).toBe('cancelled');
    expectCode(
      await call('PATCH', `/api/v1/series/${created.seriesId}`, { caption: 'again' }),
      400,
      'validation_error',
    );
  });

  test('when recurrence is wrong or cannot apply, then it is refused with its code and nothing is stored', async () => {
    const before = (await call('GET', '/api/v1/posts?limit=100')).body.data.length;
    expectCode(await call('POST', '/api/v1/posts', weekly({ recurrence: 'FREQ=HOURLY' })), 400, 'validation_error');
    expectCode(
      await call('POST', '/api/v1/posts', weekly({ recurrence: 'FREQ=WEEKLY;UNTIL=20200101T000000Z' })),
      400,
      'validation_error',
    );
    expectCode(await call('POST', '/api/v1/posts', weekly({ externalId: 'digest-1' })), 400, 'validation_error');
    expectCode(
      await call('POST', '/api/v1/posts', weekly({ scheduledTime: undefined, timezone: undefined })),
      400,
      'invalid_scheduled_time',
    );
    expectCode(
      await call('POST', '/api/v1/posts', weekly({ scheduledTime: 'next', timezone: undefined })),
      400,
      'validation_error',
    );
    expectCode(
      await call('POST', '/api/v1/publish', weekly({ scheduledTime: undefined, timezone: undefined })),
      400,
      'validation_error',
    );
    expectCode(await call('POST', '/api/v1/posts/drafts', weekly()), 400, 'validation_error');
    expect((await call('GET', '/api/v1/posts?limit=100')).body.data.length).toBe(before);
  });

  test('when another account asks for a series, then it does not exist for it', async () => {
    const { body: created } = await call('POST', '/api/v1/posts', weekly());
    expectCode(
      await call('GET', `/api/v1/series/${created.seriesId}`, undefined, other.apiKey),
      404,
      'series_not_found',
    );
    expectCode(
      await call('DELETE', `/api/v1/series/${created.seriesId}`, undefined, other.apiKey),
      404,
      'series_not_found',
    );
    expect((await call('GET', `/api/v1/series/${created.seriesId}`)).body.status).toBe('active');
  });

  test('when the same Idempotency-Key repeats a recurring create, then the same series answers and nothing more is stored', async () => {
    const headers = { 'idempotency-key': `series-${Date.now()}` };
    const first = await call('POST', '/api/v1/posts', weekly(), undefined, headers);
    const again = await call('POST', '/api/v1/posts', weekly(), undefined, headers);
    expect(first.status).toBe(201);
    expect(again.body).toMatchObject({ seriesId: first.body.seriesId, postIds: first.body.postIds });
  });
});
