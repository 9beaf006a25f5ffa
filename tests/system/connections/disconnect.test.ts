import { AppError, Events, Rpc, type EventEnvelope } from '@postbus/contracts';
import type { EventConsumer } from '@postbus/bus';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, connectProfile } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let consumer: EventConsumer;
const heard: EventEnvelope[] = [];

beforeAll(async () => {
  env = await createTestEnv('conn_disconnect');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: [] });
  consumer = system.bus.consume({
    queue: 'test.connection-events',
    perProcess: true,
    events: [Events.connectionCreated.name, Events.connectionRevoked.name],
    retryDelaysMs: [],
    handler: async (e) => void heard.push(e),
  });
  await consumer.start();
});
afterAll(async () => {
  await consumer?.stop();
  await system?.stop();
  await env?.drop();
});

const remove = (id: string, key = account.apiKey) =>
  api(system, `/api/v1/connections/${id}`, { method: 'DELETE', key });
const eventFor = (name: string, profileId: string) =>
  waitFor(() => heard.find((e) => e.name === name && (e.data as { profileId: string }).profileId === profileId), {
    what: `${name} for ${profileId}`,
  });

describe('disconnecting a profile', () => {
  test('when a profile is deleted, then 200 with its final state, connection.revoked is announced and it is no longer listed', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'instagram');
    const created = await eventFor(Events.connectionCreated.name, profileId);

    const res = await remove(profileId);
    const revoked = await eventFor(Events.connectionRevoked.name, profileId);
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });

    expect(created.data).toEqual({ profileId, accountId: account.accountId, platform: 'instagram' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: profileId,
      platform: 'instagram',
      status: 'disconnected',
      tokenExpiresAt: null,
      statusReason: expect.any(String),
    });
    expect(revoked.data).toEqual({ profileId, accountId: account.accountId });
    expect(list.body.accounts.map((a: { id: string }) => a.id)).not.toContain(profileId);
  });

  test('when a disconnected profile is deleted again, then 404 not_found, and its credentials are gone', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'youtube');
    await remove(profileId);

    const again = await remove(profileId);
    const creds = await system.bus.rpc
      .call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId })
      .catch((err: AppError) => err);

    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    expect(creds).toBeInstanceOf(AppError);
    expect((creds as AppError).code).toBe('not_found');
  });

  test('when a post names a disconnected profile, then it is refused with invalid_profile_ids', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'threads');
    await remove(profileId);

    const post = await api(system, '/api/v1/posts', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'hello', profileIds: [profileId] },
    });

    expect(post.status).toBe(400);
    expect(post.body.code).toBe('invalid_profile_ids');
  });

  test('when a profile is disconnected after a post was scheduled for it, then the post fails saying the profile was disconnected', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'threads');
    const post = await api(system, '/api/v1/posts', {
      method: 'POST',
      key: account.apiKey,
      body: {
        platforms: ['threads'],
        caption: 'too late',
        profileIds: [profileId],
        scheduledTime: new Date(Date.now() + 1500).toISOString(),
      },
    });
    expect(post.status).toBe(201);

    await remove(profileId);
    const result = await waitFor(
      async () => {
        const r = await api(system, `/api/v1/posts/${post.body.postIds[0]}`, { key: account.apiKey });
        return r.body.status === 'scheduled' ? undefined : r.body;
      },
      { timeoutMs: 15_000, what: 'the post to leave scheduled' },
    );

    expect(result.status).toBe('failed');
    expect(result.failedReason).toMatch(/disconnected/);
  });

  test('when a disconnected account is connected again, then it comes back under the same id', async () => {
    const first = await connectProfile(system, account.apiKey, 'tiktok', { handle: 'returning' });
    const { platformUserId } = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId: first.profileId,
      accountId: account.accountId,
    });
    await remove(first.profileId);

    const again = await connectProfile(system, account.apiKey, 'tiktok', { accounts: [platformUserId] });
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });

    expect(again.profileId).toBe(first.profileId);
    expect(list.body.accounts.find((a: { id: string }) => a.id === first.profileId)).toMatchObject({
      status: 'active',
      statusReason: null,
      handle: 'returning',
    });
  });
});

// Last in the file: it stops posts.
describe('disconnecting while posts does not answer', () => {
  test('when posts cannot be told before the disconnect commits, then it is refused with service_unavailable and the profile stays connected', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'threads');
    await system.stopService('posts');

    const res = await remove(profileId);
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });

    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect(list.body.accounts.find((a: { id: string }) => a.id === profileId)).toMatchObject({ status: 'active' });
    expect(
      heard.some(
        (e) => e.name === Events.connectionRevoked.name && (e.data as { profileId: string }).profileId === profileId,
      ),
    ).toBe(false);
  });
});
