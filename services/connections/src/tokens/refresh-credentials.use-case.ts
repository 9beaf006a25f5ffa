import type { DataSource } from 'typeorm';
import { AppError, isPlatform, type Credentials } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { PLATFORM_NAMES, isOAuthError, isPlatformError, type RefreshedCredentials } from '@postbus/platforms';
import type { PlatformClients } from '../platforms/platform-clients';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import { sealedAt, type TokenVault } from '../vault/token-vault';
import { lostRotationReason, mayRetryRefresh, refreshMayHaveRotated } from './unanswered-refresh';

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
 * A transient failure is retried (unless it may have rotated a TikTok refresh token:
 * unanswered-refresh.ts), then answers service_unavailable and changes nothing; a
 * definitive refusal marks the profile needs_reconnect with the platform's reason.
 */
export async function refreshProfileToken(ports: RefreshPorts, ref: { profileId: string; accountId: string | null }, mode: 'demand' | 'ahead', isDue?: (row: ProfileRow) => boolean): Promise<ProfileRow | undefined> {
  // Written once the row lock is released: the health report shows why the last refresh failed.
  let failure: { profileId: string; reason: string; unanswered: boolean } | undefined;
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
      accessToken: ports.vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
      refreshToken: ports.vault.openOrNull(row.refresh_token_enc, sealedAt(row.id, 'refresh_token_enc')),
      expiresAt: row.token_expires_at ? new Date(row.token_expires_at) : null,
    };
    let fresh: RefreshedCredentials;
    try {
      fresh = await withRetries(() => client.refresh(stored), ports.retryDelaysMs, (err) => mayRetryRefresh(client, err));
    } catch (err) {
      if (isOAuthError(err) && err.tokenRefused && client.rotatesRefreshToken && row.refresh_unanswered_at) {
        // An operator alert: a lost answer cost the profile its token (see unanswered-refresh.ts).
        ports.logger.error('refresh token lost to an unanswered refresh; profile needs reconnecting', { profileId: row.id, platform: row.platform, code: err.code, unansweredAt: row.refresh_unanswered_at });
        return ports.profiles.markNeedsReconnect(m, row.id, lostRotationReason(row.platform, new Date(row.refresh_unanswered_at)));
      }
      if (isOAuthError(err) && err.tokenRefused) {
        ports.logger.info('token refused for good; profile needs reconnecting', { profileId: row.id, platform: row.platform, code: err.code });
        return ports.profiles.markNeedsReconnect(m, row.id, err.message);
      }
      const reason = isPlatformError(err) ? err.message : (err as Error).message;
      if (!(isPlatformError(err) && err.transient)) ports.logger.error('token refresh rejected', { profileId: row.id, platform: row.platform, reason });
      failure = { profileId: row.id, reason, unanswered: refreshMayHaveRotated(client, err) };
      if (failure.unanswered) ports.logger.warn('refresh may have rotated the refresh token without an answer; not retried now', { profileId: row.id, platform: row.platform });
      throw new AppError('service_unavailable', `The ${PLATFORM_NAMES[row.platform]} token could not be refreshed right now: ${reason}`);
    }
    return ports.profiles.saveRefreshed(m, row.id, {
      accessTokenEnc: ports.vault.seal(fresh.accessToken, sealedAt(row.id, 'access_token_enc')),
      refreshTokenEnc: ports.vault.sealOrNull(fresh.refreshToken, sealedAt(row.id, 'refresh_token_enc')),
      tokenExpiresAt: fresh.expiresAt,
      refreshExpiresAt: fresh.refreshExpiresAt ?? null,
      grantedScopes: fresh.scopes ?? null,
    });
  }).catch(async (err) => {
    if (failure) await ports.profiles.recordRefreshError(failure.profileId, failure.reason).catch(() => undefined);
    if (failure?.unanswered) await ports.profiles.recordRefreshUnanswered(failure.profileId).catch(() => undefined);
    throw err;
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
    accessToken: vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
    status: row.status,
    tokenExpiresAt: row.token_expires_at ? new Date(row.token_expires_at).toISOString() : null,
  };
}

async function withRetries<T>(fn: () => Promise<T>, delaysMs: number[], mayRetry: (err: unknown) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!mayRetry(err) || attempt >= delaysMs.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}
