import type { Database } from '@postbus/kit';
import { AppError, isPlatform, type Credentials, type Platform } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { PLATFORM_NAMES, isOAuthError, isPlatformError, type RefreshedCredentials } from '@postbus/platforms';
import { writeOutbox } from '@postbus/bus';
import { refreshClientOf, type PlatformClients } from '../platforms/platform-clients';
import { profileChanged, withdrawnFact, type WithdrawFromPosts } from '../profiles/profile-changed';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import { sealedAt, type TokenVault } from '../vault/token-vault';
import { lostRotationReason, mayRetryRefresh, refreshMayHaveRotated } from './unanswered-refresh';

export interface RefreshPorts {
  db: Database;
  profiles: ProfileRepository;
  vault: TokenVault;
  clients: PlatformClients;
  clock(): Date;
  logger: Logger;
  /** Pauses between attempts after a transient failure (their count bounds the retries). */
  retryDelaysMs: number[];
  /** A token refreshed this recently is answered as is: several publishers may ask at once. */
  recentMs: number;
  withdrawFromPosts: WithdrawFromPosts;
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
export async function refreshProfileToken(
  ports: RefreshPorts,
  ref: { profileId: string; accountId: string | null },
  mode: 'demand' | 'ahead',
  isDue?: (row: ProfileRow) => boolean,
): Promise<ProfileRow | undefined> {
  // Written once the row lock is released: the health report shows why the last refresh failed.
  const outcome: RefreshOutcome = {};
  return ports.db
    .transaction(async (m) => {
      const row = await ports.profiles.lock(m, ref.accountId, ref.profileId, { skipLocked: mode === 'ahead' });
      if (!row || row.status === 'disconnected' || !row.access_token_enc) {
        if (mode === 'demand') throw new AppError('not_found', `No connected account ${ref.profileId}.`);
        return undefined;
      }
      if (row.status !== 'active' || !isPlatform(row.platform)) return row;
      if (!needsRefresh(ports, row, mode, isDue)) return row;
      return refreshLockedRow(ports, m, { row, platform: row.platform, accessTokenEnc: row.access_token_enc }, outcome);
    })
    .catch(async (err) => {
      const { failure } = outcome;
      if (failure) await ports.profiles.recordRefreshError(failure.profileId, failure.reason).catch(() => undefined);
      if (failure?.unanswered) await ports.profiles.recordRefreshUnanswered(failure.profileId).catch(() => undefined);
      throw err;
    });
}

/** A failed refresh to record once the row lock is released. */
interface RefreshOutcome {
  failure?: { profileId: string; reason: string; unanswered: boolean };
}

/** A profile row, locked, active and holding a token, with its platform checked. */
interface LockedProfile {
  row: ProfileRow;
  platform: Platform;
  accessTokenEnc: string;
}

/** `demand` skips a token refreshed within `recentMs`; `ahead` skips one no longer due. */
function needsRefresh(
  ports: RefreshPorts,
  row: ProfileRow,
  mode: 'demand' | 'ahead',
  isDue?: (row: ProfileRow) => boolean,
): boolean {
  const refreshedAt = row.token_refreshed_at ? new Date(row.token_refreshed_at).getTime() : 0;
  if (mode === 'demand' && ports.clock().getTime() - refreshedAt < ports.recentMs) return false;
  if (mode === 'ahead' && isDue && !isDue(row)) return false;
  return true;
}

/** Runs the platform's refresh grant for a locked, active row and stores the fresh tokens. */
async function refreshLockedRow(
  ports: RefreshPorts,
  m: Database,
  locked: LockedProfile,
  outcome: RefreshOutcome,
): Promise<ProfileRow | undefined> {
  const { row, platform, accessTokenEnc } = locked;
  const client = refreshClientOf(ports, row, platform);
  const stored = {
    platformUserId: row.platform_user_id,
    accessToken: ports.vault.open(accessTokenEnc, sealedAt(row.id, 'access_token_enc')),
    refreshToken: ports.vault.openOrNull(row.refresh_token_enc, sealedAt(row.id, 'refresh_token_enc')),
    expiresAt: row.token_expires_at ? new Date(row.token_expires_at) : null,
  };
  let fresh: RefreshedCredentials;
  try {
    fresh = await withRetries(
      () => client.refresh(stored),
      ports.retryDelaysMs,
      (err) => mayRetryRefresh(client, err),
    );
  } catch (err) {
    return handleRefreshFailure(ports, m, locked, err, outcome);
  }
  return ports.profiles.saveRefreshed(m, row.id, {
    accessTokenEnc: ports.vault.seal(fresh.accessToken, sealedAt(row.id, 'access_token_enc')),
    refreshTokenEnc: ports.vault.sealOrNull(fresh.refreshToken, sealedAt(row.id, 'refresh_token_enc')),
    tokenExpiresAt: fresh.expiresAt,
    refreshExpiresAt: fresh.refreshExpiresAt ?? null,
    grantedScopes: fresh.scopes ?? null,
  });
}

/**
 * A definitive refusal marks the profile needs_reconnect; anything else is noted in `outcome`
 * and answered service_unavailable, changing nothing.
 */
async function handleRefreshFailure(
  ports: RefreshPorts,
  m: Database,
  locked: LockedProfile,
  err: unknown,
  outcome: RefreshOutcome,
): Promise<ProfileRow | undefined> {
  const { row, platform } = locked;
  const client = refreshClientOf(ports, row, platform);
  if (isOAuthError(err) && err.tokenRefused && client.rotatesRefreshToken && row.refresh_unanswered_at) {
    // An operator alert: a lost answer cost the profile its token (see unanswered-refresh.ts).
    ports.logger.error('refresh token lost to an unanswered refresh; profile needs reconnecting', {
      profileId: row.id,
      platform,
      code: err.code,
      unansweredAt: row.refresh_unanswered_at,
    });
    return markNeedsReconnect(ports, m, row, lostRotationReason(platform, new Date(row.refresh_unanswered_at)));
  }
  if (isOAuthError(err) && err.tokenRefused) {
    ports.logger.info('token refused for good; profile needs reconnecting', {
      profileId: row.id,
      platform,
      code: err.code,
    });
    return markNeedsReconnect(ports, m, row, err.message);
  }
  const reason = isPlatformError(err) ? err.message : (err as Error).message;
  if (!(isPlatformError(err) && err.transient))
    ports.logger.error('token refresh rejected', { profileId: row.id, platform, reason });
  outcome.failure = { profileId: row.id, reason, unanswered: refreshMayHaveRotated(client, err) };
  if (outcome.failure.unanswered)
    ports.logger.warn('refresh may have rotated the refresh token without an answer; not retried now', {
      profileId: row.id,
      platform,
    });
  throw new AppError(
    'service_unavailable',
    `The ${PLATFORM_NAMES[platform]} token could not be refreshed right now: ${reason}`,
  );
}

/**
 * Marks the profile needs_reconnect and announces it (connection.changed) in the same transaction,
 * posts told first: a caller who reads the profile as needing a reconnect finds new posts to it refused.
 */
async function markNeedsReconnect(
  ports: RefreshPorts,
  m: Database,
  before: ProfileRow,
  reason: string,
): Promise<ProfileRow> {
  await ports.withdrawFromPosts(withdrawnFact(before, 'needs_reconnect'));
  const row = await ports.profiles.markNeedsReconnect(m, before.id, reason);
  await writeOutbox(m, [profileChanged(row)]);
  return row;
}

/** The publisher's view of a profile's credentials. */
export function credentialsOf(row: ProfileRow, vault: TokenVault): Credentials {
  if (row.status === 'disconnected' || !row.access_token_enc)
    throw new AppError('not_found', `No connected account ${row.id}.`);
  return {
    profileId: row.id,
    platform: row.platform,
    platformUserId: row.platform_user_id,
    handle: row.handle,
    accessToken: vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
    status: row.status,
    tokenExpiresAt: row.token_expires_at ? new Date(row.token_expires_at).toISOString() : null,
    // Bluesky through OAuth: the publisher calls the account's own PDS with the session's DPoP key.
    ...(row.dpop_jwk_enc &&
      row.pds_url && {
        serviceUrl: row.pds_url,
        dpopJwk: JSON.parse(vault.open(row.dpop_jwk_enc, sealedAt(row.id, 'dpop_jwk_enc'))) as Record<string, string>,
      }),
  };
}

async function withRetries<T>(
  fn: () => Promise<T>,
  delaysMs: number[],
  mayRetry: (err: unknown) => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!mayRetry(err) || attempt >= delaysMs.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}
