import { PLATFORMS, type Platform, type Principal, type ProfileSummary } from '@postbus/contracts';
import type { ProfileRepository, ProfileRow } from './profile.repository';

/** Connected profiles per platform and those needing a reconnect, as rows summarised. */
export function summariseProfiles(
  rows: Pick<ProfileRow, 'id' | 'platform' | 'handle' | 'status' | 'status_reason'>[],
): ProfileSummary {
  const byPlatform = Object.fromEntries(
    PLATFORMS.map((p) => [p, { active: 0, needsReconnect: 0 }]),
  ) as ProfileSummary['byPlatform'];
  const needsReconnect: ProfileSummary['needsReconnect'] = [];
  for (const row of rows) {
    const counts = byPlatform[row.platform as Platform];
    if (!counts) continue;
    if (row.status === 'active') counts.active++;
    if (row.status === 'needs_reconnect') {
      counts.needsReconnect++;
      needsReconnect.push({ id: row.id, platform: row.platform, handle: row.handle, statusReason: row.status_reason });
    }
  }
  const total = Object.values(byPlatform).reduce((n, c) => n + c.active + c.needsReconnect, 0);
  return { total, byPlatform, needsReconnect };
}

/** The profiles the principal's key may use (its restriction applies), summarised. */
export async function getProfileSummary(profiles: ProfileRepository, principal: Principal): Promise<ProfileSummary> {
  return summariseProfiles(await profiles.listConnected(principal.accountId, principal.profileIds));
}
