import { AppError, type PinterestBoards, type Principal } from '@postbus/contracts';
import { isPlatformError, type PinterestBoard } from '@postbus/platforms';
import { findUsableProfile } from '../profiles/find-usable-profile';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import { sealedAt, type TokenVault } from '../vault/token-vault';

export interface PinterestBoardsPorts {
  profiles: ProfileRepository;
  vault: TokenVault;
  /** The account's boards, every page (GET /v5/boards). */
  listBoards(accessToken: string): Promise<PinterestBoard[]>;
  /** A fresh token after Pinterest refused the stored one (the refresh use case, on demand). */
  refresh(row: ProfileRow): Promise<ProfileRow>;
}

/** The boards a Pinterest profile may pin to. A refused token is refreshed once. */
export async function listPinterestBoards(
  ports: PinterestBoardsPorts,
  principal: Principal,
  id: string,
): Promise<PinterestBoards> {
  let row = await findUsableProfile(ports.profiles, principal, id);
  if (row.platform !== 'pinterest')
    throw new AppError(
      'validation_error',
      `Profile ${id} is a ${row.platform} account; boards are read for Pinterest profiles.`,
    );
  for (let attempt = 0; ; attempt++) {
    if (row.status !== 'active' || !row.access_token_enc) throw needsReconnect(id, row.status_reason);
    try {
      const boards = await ports.listBoards(
        ports.vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
      );
      return { profileId: row.id, boards };
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      if (err.tokenRejected && attempt === 0) {
        row = await ports.refresh(row);
        continue;
      }
      if (err.tokenRejected) throw needsReconnect(id, err.message);
      if (err.transient) throw new AppError('service_unavailable', err.message);
      throw new AppError('validation_error', `Pinterest would not list this account's boards: ${err.message}`);
    }
  }
}

function needsReconnect(id: string, reason: string | null): AppError {
  return new AppError(
    'invalid_profile_ids',
    `Profile ${id} needs to be reconnected${reason ? ` (${reason})` : ''}; create a connection link with POST /api/v1/connections.`,
  );
}
