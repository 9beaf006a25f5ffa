import type { DataSource } from 'typeorm';
import { Events, Rpc, newId, type ConnectionChanged, type Principal, type Profile } from '@postbus/contracts';
import { envelope, openBus, type Bus } from '@postbus/bus';
import { createLogger, openDataSource } from '@postbus/kit';
import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { start } from '../src/main';
import { namedProfiles, type NamedProfilesDeps } from '../src/posts/named-profiles';
import { ProfileFactRepository, type ProfileFact } from '../src/posts/profile-fact.repository';
import { resolveProfiles } from '../src/posts/resolve-profiles';

let env: TestEnv;
let service: Awaited<ReturnType<typeof start>>;
let ds: DataSource;
let facts: ProfileFactRepository;
let bus: Bus;

const MAX_AGE_MS = 30_000;

beforeAll(async () => {
  env = await createTestEnv('posts_profile_facts');
  service = await start({ ...env.env, POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 2 });
  facts = new ProfileFactRepository(ds);
  bus = await openBus({
    url: env.amqpUrl,
    namespace: env.namespace,
    logger: createLogger('test', 'silent'),
    rpcTimeoutMs: 2000,
    ephemeral: true,
  });
});
afterAll(async () => {
  await bus?.close();
  await service?.lifecycle.stop();
  await ds?.destroy();
  await env?.drop();
});

const principalOf = (accountId: string): Principal => ({
  accountId,
  userId: 'usr_test',
  credential: { type: 'api_key', id: 'key_test' },
  scopes: ['posts:write'],
  profileIds: 'all',
});

function changed(p: Partial<ConnectionChanged> & { profileId: string; accountId: string }): ConnectionChanged {
  return { platform: 'threads', status: 'active', revision: 1, connectedAt: '2026-11-01T00:00:00.000Z', ...p };
}

/** What connections answers now, and how often it was asked: the stand-in for the RPC port. */
function connectionsSaying(profiles: Profile[]) {
  const asked: string[][] = [];
  return {
    asked,
    listProfiles: (async (principal, q) => {
      asked.push(q.ids);
      return profiles.filter((p) => p.accountId === principal.accountId && q.ids.includes(p.id));
    }) as NamedProfilesDeps['listProfiles'],
  };
}

function profileOf(c: ConnectionChanged): Profile {
  return {
    id: c.profileId,
    accountId: c.accountId,
    platform: c.platform,
    handle: 'someone',
    profileUrl: 'https://www.threads.net/@someone',
    profileImageUrl: null,
    status: c.status,
    tokenExpiresAt: null,
    connectedAt: c.connectedAt,
    updatedAt: c.connectedAt,
    revision: c.revision,
  };
}

async function held(profileId: string): Promise<ProfileFact | undefined> {
  return (await facts.find([profileId]))[0];
}

describe('facts fed by connection.changed', () => {
  test('when connection.changed is heard, then posts holds the profile as the event says', async () => {
    const profileId = newId('prf');
    await bus.events.publish([envelope(Events.connectionChanged, changed({ profileId, accountId: 'acc_a' }))]);
    const fact = await waitFor(() => held(profileId), { what: 'the fact to be stored' });
    expect(fact).toMatchObject({ accountId: 'acc_a', platform: 'threads', status: 'active', revision: 1 });
  });

  test('when an older change is heard after a newer one, then the newer status stays', async () => {
    const profileId = newId('prf');
    const marker = newId('prf');
    await bus.events.publish([
      envelope(
        Events.connectionChanged,
        changed({ profileId, accountId: 'acc_a', status: 'disconnected', revision: 3 }),
      ),
      envelope(Events.connectionChanged, changed({ profileId, accountId: 'acc_a', status: 'active', revision: 2 })),
      envelope(Events.connectionChanged, changed({ profileId: marker, accountId: 'acc_a' })),
    ]);
    await waitFor(() => held(marker), { what: 'the events to be applied' });
    expect(await held(profileId)).toMatchObject({ status: 'disconnected', revision: 3 });
  });

  test('when connections answered before a newer event came, then storing that answer does not bring back the old status', async () => {
    const profileId = newId('prf');
    await facts.save(
      [
        {
          ...changed({ profileId, accountId: 'acc_a', status: 'needs_reconnect', revision: 5 }),
          connectedAt: new Date(),
        },
      ],
      new Date(),
    );
    await facts.save(
      [{ ...changed({ profileId, accountId: 'acc_a', status: 'active', revision: 4 }), connectedAt: new Date() }],
      new Date(),
    );
    expect(await held(profileId)).toMatchObject({ status: 'needs_reconnect', revision: 5 });
  });
});

describe('checking named profiles for a create', () => {
  const clockAt = (ms: number) => () => new Date(ms);

  async function given(c: ConnectionChanged, checkedAt: Date): Promise<void> {
    await facts.save([{ ...c, connectedAt: new Date(c.connectedAt) }], checkedAt);
  }

  test('when the fact is active, of this account and fresh, then connections is not asked', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc') });
    await given(c, new Date(1_000_000));
    const connections = connectionsSaying([profileOf(c)]);
    const deps = {
      facts,
      listProfiles: connections.listProfiles,
      clock: clockAt(1_000_000 + MAX_AGE_MS),
      maxAgeMs: MAX_AGE_MS,
    };
    const found = await resolveProfiles(
      {
        listProfiles: () => Promise.reject(new Error('unused')),
        namedProfiles: (p, ids) => namedProfiles(deps, p, ids),
      },
      principalOf(c.accountId),
      ['threads'],
      [c.profileId],
    );
    expect(found).toEqual([{ id: c.profileId, platform: 'threads', status: 'active' }]);
    expect(connections.asked).toEqual([]);
  });

  test('when no fact is held (first start, or the event not heard yet), then connections is asked once and its answer kept', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc'), revision: 2 });
    const connections = connectionsSaying([profileOf(c)]);
    const deps = { facts, listProfiles: connections.listProfiles, clock: clockAt(2_000_000), maxAgeMs: MAX_AGE_MS };
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([
      { id: c.profileId, status: 'active' },
    ]);
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([
      { id: c.profileId, status: 'active' },
    ]);
    expect(connections.asked).toEqual([[c.profileId]]);
    expect(await held(c.profileId)).toMatchObject({ revision: 2, checkedAt: new Date(2_000_000) });
  });

  test('when the fact is older than the bound, then connections is asked again; a disconnect it reports is refused', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc') });
    await given(c, new Date(3_000_000));
    // Disconnected in connections, its event never heard here.
    const connections = connectionsSaying([profileOf({ ...c, status: 'disconnected', revision: 2 })]);
    const deps = {
      facts,
      listProfiles: connections.listProfiles,
      clock: clockAt(3_000_000 + MAX_AGE_MS + 1),
      maxAgeMs: MAX_AGE_MS,
    };
    const refused = resolveProfiles(
      {
        listProfiles: () => Promise.reject(new Error('unused')),
        namedProfiles: (p, ids) => namedProfiles(deps, p, ids),
      },
      principalOf(c.accountId),
      ['threads'],
      [c.profileId],
    );
    await expect(refused).rejects.toMatchObject({ code: 'invalid_profile_ids' });
    expect(connections.asked).toEqual([[c.profileId]]);
    expect(await held(c.profileId)).toMatchObject({ status: 'disconnected', revision: 2 });
  });

  test('when a profile was disconnected a moment ago and its event is not heard yet, then a create within the bound still passes on the fact', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc') });
    await given(c, new Date(4_000_000));
    const connections = connectionsSaying([profileOf({ ...c, status: 'disconnected', revision: 2 })]);
    const deps = {
      facts,
      listProfiles: connections.listProfiles,
      clock: clockAt(4_000_000 + MAX_AGE_MS),
      maxAgeMs: MAX_AGE_MS,
    };
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([{ status: 'active' }]);
    expect(connections.asked).toEqual([]);
  });

  test('when the fact says needs_reconnect or disconnected, then connections decides: a reconnect it knows of passes', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc'), status: 'needs_reconnect', revision: 2 });
    await given(c, new Date(5_000_000));
    const connections = connectionsSaying([profileOf({ ...c, status: 'active', revision: 3 })]);
    const deps = { facts, listProfiles: connections.listProfiles, clock: clockAt(5_000_001), maxAgeMs: MAX_AGE_MS };
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([{ status: 'active' }]);
    expect(connections.asked).toEqual([[c.profileId]]);
  });

  test('when the fact is of another account, then connections is asked and the profile refused as before', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc') });
    await given(c, new Date(6_000_000));
    const connections = connectionsSaying([profileOf(c)]);
    const deps = { facts, listProfiles: connections.listProfiles, clock: clockAt(6_000_001), maxAgeMs: MAX_AGE_MS };
    const refused = resolveProfiles(
      {
        listProfiles: () => Promise.reject(new Error('unused')),
        namedProfiles: (p, ids) => namedProfiles(deps, p, ids),
      },
      principalOf(newId('acc')),
      ['threads'],
      [c.profileId],
    );
    await expect(refused).rejects.toMatchObject({ code: 'invalid_profile_ids' });
    expect(connections.asked).toHaveLength(1);
  });
});

describe('a change away from active that connections tells posts of before it commits', () => {
  test('when connections tells posts a profile is withdrawn, then posts holds it disconnected, asks connections at the next create, and an older event heard later does not bring it back', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc'), revision: 4 });
    await facts.save([{ ...c, connectedAt: new Date(c.connectedAt) }], new Date());

    await bus.rpc.call(
      Rpc.postsProfileWithdrawn,
      { profileId: c.profileId, platform: 'threads', status: 'disconnected', connectedAt: c.connectedAt, revision: 5 },
      principalOf(c.accountId),
    );
    expect(await held(c.profileId)).toMatchObject({ accountId: c.accountId, status: 'disconnected', revision: 5 });

    const marker = newId('prf');
    await bus.events.publish([
      envelope(Events.connectionChanged, changed({ ...c, status: 'active', revision: 4 })),
      envelope(Events.connectionChanged, changed({ profileId: marker, accountId: c.accountId })),
    ]);
    await waitFor(() => held(marker), { what: 'the events to be applied' });
    expect(await held(c.profileId)).toMatchObject({ status: 'disconnected', revision: 5 });

    const connections = connectionsSaying([profileOf({ ...c, status: 'disconnected', revision: 5 })]);
    const deps = { facts, listProfiles: connections.listProfiles, clock: () => new Date(), maxAgeMs: MAX_AGE_MS };
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([
      { status: 'disconnected' },
    ]);
    expect(connections.asked).toEqual([[c.profileId]]);
  });

  test('when the change then does not commit, then connections keeps deciding until the profile next changes', async () => {
    const c = changed({ profileId: newId('prf'), accountId: newId('acc'), revision: 7 });
    await bus.rpc.call(
      Rpc.postsProfileWithdrawn,
      {
        profileId: c.profileId,
        platform: 'threads',
        status: 'needs_reconnect',
        connectedAt: c.connectedAt,
        revision: 8,
      },
      principalOf(c.accountId),
    );
    expect(await held(c.profileId)).toMatchObject({ status: 'needs_reconnect', revision: 8 });
    // connections still says active at revision 7: passed, and asked again each time
    const connections = connectionsSaying([profileOf(c)]);
    const deps = { facts, listProfiles: connections.listProfiles, clock: () => new Date(), maxAgeMs: MAX_AGE_MS };
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([{ status: 'active' }]);
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([{ status: 'active' }]);
    expect(connections.asked).toEqual([[c.profileId], [c.profileId]]);

    // its next change writes revision 8, which replaces the withdrawn fact
    await bus.events.publish([envelope(Events.connectionChanged, changed({ ...c, status: 'active', revision: 8 }))]);
    await waitFor(async () => ((await held(c.profileId))?.status === 'active' ? true : undefined), {
      what: 'the next change to be applied',
    });
    expect(await namedProfiles(deps, principalOf(c.accountId), [c.profileId])).toMatchObject([{ status: 'active' }]);
    expect(connections.asked).toHaveLength(2);
  });
});
