import { AppError, principalMayUseProfile, type Platform, type Principal } from '@postbus/contracts';
import type { ProfileRef } from './named-profiles';
import type { PostsPorts } from './posts.ports';

/**
 * The profiles that receive a post: the named ones (each active, of this account, of a requested
 * platform, and usable by the key), or without names every matching active profile the key may use.
 */
export async function resolveProfiles(
  ports: Pick<PostsPorts, 'listProfiles' | 'namedProfiles'>,
  principal: Principal,
  platforms: Platform[],
  profileIds: string[] | undefined,
): Promise<ProfileRef[]> {
  if (profileIds?.length) {
    const outside = profileIds.filter((id) => !principalMayUseProfile(principal, id));
    if (outside.length)
      throw new AppError('profile_scope_denied', `This key may not use profile ${outside.join(', ')}.`);
    const ids = [...new Set(profileIds)];
    const found = ports.namedProfiles
      ? await ports.namedProfiles(principal, ids)
      : await ports.listProfiles(principal, { platforms: [], ids });
    const byId = new Map(found.map((p) => [p.id, p]));
    const bad = ids.filter((id) => {
      const p = byId.get(id);
      return !p || p.status !== 'active' || !platforms.includes(p.platform as Platform);
    });
    if (bad.length)
      throw new AppError(
        'invalid_profile_ids',
        `Profile ${bad.join(', ')} is not an active connected account of a requested platform (${platforms.join(', ')}).`,
      );
    return ids.map((id) => byId.get(id)!);
  }
  const all = (await ports.listProfiles(principal, { platforms })).filter(
    (p) => p.status === 'active' && principalMayUseProfile(principal, p.id),
  );
  if (!all.length)
    throw new AppError(
      'invalid_profile_ids',
      `No active connected account for ${platforms.join(', ')} that this key may use; connect one with POST /api/v1/connections.`,
    );
  return all;
}
