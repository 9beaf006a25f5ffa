import { AppError, type Principal, type TikTokPostingOptions } from '@postbus/contracts';
import { isPlatformError, type PlatformError, type TikTokCreatorInfo } from '@postbus/platforms';
import { findUsableProfile } from '../profiles/find-usable-profile';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import { sealedAt, type TokenVault } from '../vault/token-vault';

export interface TikTokOptionsPorts {
  profiles: ProfileRepository;
  vault: TokenVault;
  /** TikTok's creator_info for the token's creator. */
  readCreatorInfo(accessToken: string): Promise<TikTokCreatorInfo>;
  /** A fresh token after TikTok refused the stored one (the refresh use case, on demand). */
  refresh(row: ProfileRow): Promise<ProfileRow>;
}

const tokenRefused = (err: PlatformError) => err.code === 'access_token_invalid' || err.status === 401;

/** creator_info of a TikTok profile: what a TikTok post of it may use. A refused token is refreshed once. */
export async function getTikTokPostingOptions(
  ports: TikTokOptionsPorts,
  principal: Principal,
  id: string,
): Promise<TikTokPostingOptions> {
  let row = await findUsableProfile(ports.profiles, principal, id);
  if (row.platform !== 'tiktok')
    throw new AppError(
      'validation_error',
      `Profile ${id} is a ${row.platform} account; posting options are read for TikTok profiles.`,
    );
  for (let attempt = 0; ; attempt++) {
    if (row.status !== 'active' || !row.access_token_enc) throw needsReconnect(id, row.status_reason);
    try {
      const info = await ports.readCreatorInfo(
        ports.vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
      );
      return {
        profileId: row.id,
        creatorUsername: info.username || row.handle,
        creatorNickname: info.nickname || info.username || row.handle,
        privacyLevelOptions: info.privacyLevelOptions,
        commentDisabled: info.commentDisabled,
        duetDisabled: info.duetDisabled,
        stitchDisabled: info.stitchDisabled,
        maxVideoPostDurationSec: info.maxVideoPostDurationSec,
      };
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      if (tokenRefused(err) && attempt === 0) {
        row = await ports.refresh(row);
        continue;
      }
      if (tokenRefused(err)) throw needsReconnect(id, err.message);
      if (err.transient) throw new AppError('service_unavailable', err.message);
      throw new AppError('validation_error', `TikTok does not let this creator post now: ${err.message}`);
    }
  }
}

function needsReconnect(id: string, reason: string | null): AppError {
  return new AppError(
    'invalid_profile_ids',
    `Profile ${id} needs to be reconnected${reason ? ` (${reason})` : ''}; create a connection link with POST /api/v1/connections.`,
  );
}
