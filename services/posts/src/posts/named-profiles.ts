import type { Principal, Profile, Rpc, RpcInput } from '@postbus/contracts';
import type { ProfileFact, ProfileFactRepository } from './profile-fact.repository';

/** What a create checks of a profile: its platform and whether it is active. */
export type ProfileRef = Pick<Profile, 'id' | 'platform' | 'status'>;

export interface NamedProfilesDeps {
  facts: ProfileFactRepository;
  /** Asks connections: the principal's account's profiles among `ids`, inactive ones included. */
  listProfiles(
    principal: Principal,
    q: { platforms: string[]; ids: string[]; includeInactive: true },
  ): Promise<Profile[]>;
  clock(): Date;
  /** How long connections' word on a profile is trusted without asking again (POSTS_PROFILE_FACTS_MAX_AGE_MS). */
  maxAgeMs: number;
}

/**
 * The principal's account's profiles among `ids`, from the facts posts keeps (fed by
 * connection.changed) when they say the profile is active, of this account, and were confirmed
 * within maxAgeMs; every other id is asked of connections, whose answers are kept. So a refusal
 * (unknown, another account's, not active) is always connections' own answer of the moment, and
 * an acceptance at worst maxAgeMs old — in practice as old as the relay and the bus take to bring
 * connection.changed, a few milliseconds.
 */
export async function namedProfiles(
  deps: NamedProfilesDeps,
  principal: Principal,
  ids: string[],
): Promise<ProfileRef[]> {
  const now = deps.clock();
  const trusted = new Map(
    (await deps.facts.find(ids))
      .filter((f) => isTrusted(f, principal.accountId, now, deps.maxAgeMs))
      .map((f) => [f.profileId, { id: f.profileId, platform: f.platform, status: f.status }]),
  );
  const ask = ids.filter((id) => !trusted.has(id));
  if (!ask.length) return [...trusted.values()];
  const answered = await deps.listProfiles(principal, { platforms: [], ids: ask, includeInactive: true });
  await deps.facts.save(answered.flatMap(factOf), now);
  return [...trusted.values(), ...answered];
}

/** A fact a create may pass on without asking: active, of this account, confirmed recently enough. */
export function isTrusted(f: ProfileFact, accountId: string, now: Date, maxAgeMs: number): boolean {
  return f.accountId === accountId && f.status === 'active' && now.getTime() - f.checkedAt.getTime() <= maxAgeMs;
}

/**
 * connections' word, before it commits a profile leaving `active`, of the fact the change will leave: held
 * unless a newer revision is, so no create passes on an older word of an active profile once the
 * change is done. Should the change then not commit, the fact only makes creates ask
 * connections, whose answers replace it from the profile's next change on.
 */
export async function withdrawProfile(
  facts: ProfileFactRepository,
  principal: Principal,
  withdrawn: RpcInput<typeof Rpc.postsProfileWithdrawn>,
  now: Date,
): Promise<void> {
  await facts.save(
    [
      {
        profileId: withdrawn.profileId,
        accountId: principal.accountId,
        platform: withdrawn.platform,
        status: withdrawn.status,
        connectedAt: new Date(withdrawn.connectedAt),
        revision: withdrawn.revision,
      },
    ],
    now,
  );
}

/** connections' answer as a fact; one without a revision (an older connections) is used but not kept. */
function factOf(p: Profile): Omit<ProfileFact, 'checkedAt'>[] {
  if (p.revision === undefined) return [];
  return [
    {
      profileId: p.id,
      accountId: p.accountId,
      platform: p.platform,
      status: p.status,
      connectedAt: new Date(p.connectedAt),
      revision: p.revision,
    },
  ];
}
