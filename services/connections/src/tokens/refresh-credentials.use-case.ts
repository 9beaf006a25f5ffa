import type { DataSource } from 'typeorm';
import { AppError, isPlatform, type Credentials } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { PLATFORM_NAMES, isOAuthError, isPlatformError, type RefreshedCredentials } from '@postbus/platforms';
import type { PlatformClients } from '../platforms/platform-clients';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import type { TokenVault } from '../vault/token-vault';

export interface RefreshPorts {
  ds: DataSource;
  profiles: ProfileRepository;
  vault: TokenVault;
  clients: PlatformClients;
  clock(): Date;
  logger: Logger;
  /** Pauses between attempts after a transient failure (their count bounds the retries). */
  retryDelaysMs: number[];
  /** A token refreshed this recently is answered as is: several publishers may ask at once. */
  recentMs: number;
}

/**
 * Refreshes one profile's token with the platform's refresh grant, holding the profile's row lock
 * so that concurrent refreshes (a rotating TikTok refresh token may be used once) take turns.
 * - `demand` (the publisher after a refused token): refreshes unless it was just refreshed.
 * - `ahead` (the periodic job): skips a profile another refresh holds, and one no longer due.
 * A transient failure is retried, then answers service_unavailable and changes nothing; a
 * definitive refusal marks the profile needs_reconnect with the platform's reason.
 */
export async function refreshProfileToken(ports: RefreshPorts, ref: { profileId: string; accountId: string | null }, mode: 'demand' | 'ahead', isDue?: (row: ProfileRow) => boolean): Promise<ProfileRow | undefined> {
  return ports.ds.transaction(async (m) => {
    const row = await ports.profiles.lock(m, ref.accountId, ref.profileId, { skipLocked: mode === 'ahead' });
    if (!row || row.status === 'disconnected' || !row.access_token_enc) {
      if (mode === 'demand') throw new AppError('not_found', `No connected account ${ref.profileId}.`);
      return undefined;
    }
    if (row.status !== 'active' || !isPlatform(row.platform)) return row;
    const refreshedAt = row.token_refreshed_at ? new Date(row.token_refreshed_at).getTime() : 0;
    if (mode === 'demand' && ports.clock().getTime() - refreshedAt < ports.recentMs) return row;
    if (mode === 'ahead' && isDue && !isDue(row)) return row;

    const client = ports.clients[row.platform];
    const stored = {
      platformUserId: row.platform_user_id,
      accessToken: ports.vault.open(row.access_token_enc),
      refreshToken: ports.vault.openOrNull(row.refresh_token_enc),
      expiresAt: row.token_expires_at ? new Date(row.token_expires_at) : null,
    };
    let fresh: RefreshedCredentials;
    try {
      fresh = await withRetries(() => client.refresh(stored), ports.retryDelaysMs);
    } catch (err) {
      if (isOAuthError(err) && err.tokenRefused) {
        ports.logger.info('token refused for good; profile needs reconnecting', { profileId: row.id, platform: row.platform, code: err.code });
        return ports.profiles.markNeedsReconnect(m, row.id, err.message);
      }
      const reason = isPlatformError(err) ? err.message : (err as Error).message;
      if (!(isPlatformError(err) && err.transient)) ports.logger.error('token refresh rejected', { profileId: row.id, platform: row.platform, reason });
      throw new AppError('service_unavailable', `The ${PLATFORM_NAMES[row.platform]} token could not be refreshed right now: ${reason}`);
    }
    return ports.profiles.saveRefreshed(m, row.id, {
      accessTokenEnc: ports.vault.seal(fresh.accessToken),
      refreshTokenEnc: ports.vault.sealOrNull(fresh.refreshToken),
      tokenExpiresAt: fresh.expiresAt,
      refreshExpiresAt: fresh.refreshExpiresAt ?? null,
    });
  });
}

/** The publisher's view of a profile's credentials. */
export function credentialsOf(row: ProfileRow, vault: TokenVault): Credentials {
  if (row.status === 'disconnected' || !row.access_token_enc) throw new AppError('not_found', `No connected account ${row.id}.`);
  return {
    profileId: row.id,
    platform: row.platform,
    platformUserId: row.platform_user_id,
    handle: row.handle,
    accessToken: vault.open(row.access_token_enc),
    status: row.status,
    tokenExpiresAt: row.token_expires_at ? new Date(row.token_expires_at).toISOString() : null,
  };
}

async function withRetries<T>(fn: () => Promise<T>, delaysMs: number[]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(isPlatformError(err) && err.transient) || attempt >= delaysMs.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}
