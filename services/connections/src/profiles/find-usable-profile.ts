import { AppError, principalMayUseProfile, type Principal } from '@postbus/contracts';
import type { ProfileRepository, ProfileRow } from './profile.repository';

/** A connected profile of the principal's account that the key may use; another account's answers as a missing one. */
export async function findUsableProfile(
  profiles: ProfileRepository,
  principal: Principal,
  id: string,
): Promise<ProfileRow> {
  const row = await profiles.find(principal.accountId, id);
  if (!row || row.status === 'disconnected') throw new AppError('not_found', `No connected account ${id}.`);
  if (!principalMayUseProfile(principal, id))
    throw new AppError('profile_scope_denied', `This key may not use profile ${id}.`);
  return row;
}
