import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_local_time');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const call = (method: string, path: string, body: unknown) => api(system, path, { method, key: account.apiKey, body });
const create = (body: Record<string, unknown>, path = '/api/v1/posts') =>
  call('POST', path, { platforms: ['threads'], caption: 'local time', ...body });
const storedTime = async (id: string) =>
  (await api(system, `/api/v1/posts/${id}`, { key: account.apiKey })).body.scheduledTime;

describe('scheduledTime as local wall time plus timezone', () => {
  test('when the local time falls in the spring-forward gap, then the post is due at the first valid minute after it, and the answer shows the UTC instant and the zone', async () => {
    const r = await create(
      { scheduledTime: '2027-03-28T02:30:00', timezone: 'Europe/Berlin' },
      '/api/v1/posts/schedule',
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ scheduledTime: '2027-03-28T01:00:00.000Z', timezone: 'Europe/Berlin' });
    expect(await storedTime(r.body.postIds[0])).toBe('2027-03-28T01:00:00.000Z');
  });

  test('when the local time falls in the repeated hour, then it is its first occurrence', async () => {
    const r = await create({ scheduledTime: '2027-10-31T02:30:00', timezone: 'Europe/Berlin' });
    expect(r.body).toMatchObject({ scheduledTime: '2027-10-31T00:30:00.000Z', timezone: 'Europe/Berlin' });
  });

  test('when a draft, a change or a validation names a local time and zone, then the same rules apply', async () => {
    const draft = await create(
      { scheduledTime: '2027-06-01T09:00', timezone: 'Asia/Kathmandu' },
      '/api/v1/posts/drafts',
    );
    expect(draft.body).toMatchObject({
      status: 'draft',
      scheduledTime: '2027-06-01T03:15:00.000Z',
      timezone: 'Asia/Kathmandu',
    });

    const id = draft.body.postIds[0];
    const changed = await call('PATCH', `/api/v1/posts/${id}`, {
      scheduledTime: '2027-03-14T02:30',
      timezone: 'America/New_York',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'scheduled', scheduledTime: '2027-03-14T07:00:00.000Z' });

    const valid = await call('POST', '/api/v1/posts/validate', {
      platforms: ['threads'],
      caption: 'x',
      scheduledTime: '2027-10-03T02:15',
      timezone: 'Australia/Lord_Howe',
    });
    expect(valid.body).toEqual({ valid: true, problems: [] });
  });

  test('when a time without offset comes without timezone, then 400 invalid_scheduled_time as before', async () => {
    const r = await create({ scheduledTime: '2027-03-28T02:30:00' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'invalid_scheduled_time' });
  });

  test('when the zone is unknown or not a string, then 400 validation_error naming timezone, for create, change and validation alike', async () => {
    for (const timezone of ['Mars/Olympus', 'CEST+1', 42, 'x'.repeat(65)]) {
      const r = await create({ scheduledTime: '2027-03-28T02:30:00', timezone });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'validation_error' });
      expect(r.body.error).toMatch(/timezone/);
    }
    const draft = await create({}, '/api/v1/posts/drafts');
    const changed = await call('PATCH', `/api/v1/posts/${draft.body.postIds[0]}`, {
      scheduledTime: '2027-06-01T09:00',
      timezone: 'Nowhere/City',
    });
    expect({ status: changed.status, code: changed.body.code }).toEqual({ status: 400, code: 'validation_error' });
    const valid = await call('POST', '/api/v1/posts/validate', {
      platforms: ['threads'],
      caption: 'x',
      scheduledTime: '2027-06-01T09:00',
      timezone: 'Nowhere/City',
    });
    expect(valid.body.problems).toEqual([expect.objectContaining({ code: 'validation_error', field: 'timezone' })]);
  });

  test('when the local time is past in its zone or not a real date, then 400 with the scheduledTime codes', async () => {
    const past = await create({ scheduledTime: '2020-01-01T09:00', timezone: 'Europe/Berlin' });
    expect(past.body.code).toBe('scheduled_time_in_past');
    const unreal = await create({ scheduledTime: '2027-02-30T09:00', timezone: 'Europe/Berlin' });
    expect(unreal.body.code).toBe('invalid_scheduled_time');
  });
});
