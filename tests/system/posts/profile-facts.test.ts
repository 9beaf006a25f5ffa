import { waitFor } from '@postbus/testing';
import { useSystem } from '../support/use-system';
import { api, inHours } from '../support/posts-api';
import { connectProfile, credentialsOf, platformAccepts, refreshCredentials, sandboxControl } from '../support/handoff';

const ctx = useSystem('posts_profile_facts_sys', {
  // Every on-demand refresh really refreshes: the token refused after it expired marks the profile needs_reconnect.
  env: { RATE_LIMIT_PER_MINUTE: '0', TOKEN_REFRESH_DEDUP_MS: '0' },
  db: true,
});

/** What posts holds of a profile (its own table, fed by connection.changed). */
async function factOf(profileId: string): Promise<{ status: string; revision: number } | undefined> {
  const { rows } = await ctx.db.query(
    'SELECT status, revision::int AS revision FROM posts.profile_facts WHERE profile_id = $1',
    [profileId],
  );
  return rows[0];
}

describe('the profile facts posts keeps', () => {
  test('when a profile is connected and later disconnected, then posts holds the disconnect before it is answered, and a create sent right after is refused', async () => {
    const owner = await ctx.system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const profileId = owner.profiles[0].id;
    const create = () =>
      api(ctx.system, '/api/v1/posts', {
        method: 'POST',
        key: owner.apiKey,
        body: { platforms: ['threads'], caption: 'hi', profileIds: [profileId], scheduledTime: inHours(24) },
      });
    const connected = await waitFor(async () => (await factOf(profileId))?.status === 'active' || undefined, {
      what: 'connection.changed (active) to reach posts',
    });
    expect(connected).toBe(true);
    expect((await create()).status).toBe(201);

    const gone = await api(ctx.system, `/api/v1/connections/${profileId}`, { method: 'DELETE', key: owner.apiKey });
    expect(gone.status).toBe(200);
    // told by connections before the answer, not only later by connection.changed
    const held = await factOf(profileId);
    expect(held).toMatchObject({ status: 'disconnected' });
    expect(held!.revision).toBeGreaterThan(1);
    const refused = await create();
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'invalid_profile_ids' });
  });

  test('when a refresh finds the token refused for good, then posts holds needs_reconnect before the refresh answers, and refuses creates to the profile', async () => {
    const owner = await ctx.system.seedAccount({ platforms: [], plan: 'pro' });
    await sandboxControl(ctx.system, 'POST', '/oauth/settings', { platform: 'threads', accessTokenTtlSec: 1 });
    try {
      const { profileId } = await connectProfile(ctx.system, owner.apiKey, 'threads');
      const created = await api(ctx.system, '/api/v1/posts', {
        method: 'POST',
        key: owner.apiKey,
        body: { platforms: ['threads'], caption: 'hi', profileIds: [profileId], scheduledTime: inHours(24) },
      });
      expect(created.status).toBe(201);
      const stale = await credentialsOf(ctx.system, owner, profileId);
      await waitFor(
        async () => ((await platformAccepts(ctx.system, 'threads', stale.accessToken)) ? undefined : true),
        {
          what: 'the token to expire',
        },
      );
      expect((await refreshCredentials(ctx.system, owner, profileId)).status).toBe('needs_reconnect');

      // told by connections before the refresh answered, not only later by connection.changed
      const heard = await factOf(profileId);
      expect(heard).toMatchObject({ status: 'needs_reconnect' });
      const refused = await api(ctx.system, '/api/v1/posts', {
        method: 'POST',
        key: owner.apiKey,
        body: { platforms: ['threads'], caption: 'hi', profileIds: [profileId], scheduledTime: inHours(24) },
      });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'invalid_profile_ids' });
    } finally {
      await sandboxControl(ctx.system, 'POST', '/oauth/settings', {
        platform: 'threads',
        accessTokenTtlSec: 5_183_944,
      });
    }
  });
});
