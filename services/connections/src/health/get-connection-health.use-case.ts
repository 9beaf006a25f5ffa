import {
  AppError,
  isPlatform,
  principalMayUseProfile,
  type ConnectionHealth,
  type Principal,
} from '@postbus/contracts';
import {
  FIRST_COMMENT_SCOPES,
  PLATFORM_NAMES,
  isPlatformError,
  missingFirstCommentScopes,
  missingPublishingScopes,
  publishingScopesOf,
  type TikTokCreatorInfo,
} from '@postbus/platforms';
import type { ProfileRepository, ProfileRow } from '../profiles/profile.repository';
import { nextRefreshAt } from '../tokens/token-refresher';
import { sealedAt, type TokenVault } from '../vault/token-vault';
import { healthProblems, tiktokFacts } from './connection-health.rules';
import { NO_QUOTA_REASONS, QUOTA_SOURCES, type QuotaReader } from './publishing-quota';

export interface HealthPorts {
  profiles: ProfileRepository;
  vault: TokenVault;
  clock(): Date;
  /** The refresher's TOKEN_REFRESH_AHEAD_SECONDS, to tell when it renews the token. */
  aheadSeconds: number;
  /** TIKTOK_CLIENT_AUDITED. */
  tiktokAudited: boolean;
  quotaReaders: Partial<Record<string, QuotaReader>>;
  readCreatorInfo(accessToken: string): Promise<TikTokCreatorInfo>;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * A profile's publishing health: token, scopes, quota and TikTok's audit mode. Platform reads
 * that fail become reasons in the report, never an error: the report is for finding out what
 * is wrong. Another account's profile, or one outside the key's profiles, answers as missing.
 */
export async function getConnectionHealth(
  ports: HealthPorts,
  principal: Principal,
  id: string,
): Promise<ConnectionHealth> {
  const row = await ports.profiles.find(principal.accountId, id);
  if (!row || row.status === 'disconnected' || !principalMayUseProfile(principal, id) || !isPlatform(row.platform))
    throw new AppError('not_found', `No connected account ${id}.`);
  const platform = row.platform;
  const now = ports.clock();
  const usable =
    row.status === 'active' && row.access_token_enc
      ? {
          platformUserId: row.platform_user_id,
          accessToken: ports.vault.open(row.access_token_enc, sealedAt(row.id, 'access_token_enc')),
        }
      : null;
  const granted = row.granted_scopes;

  const [quota, creatorInfo] = await Promise.all([
    readQuota(ports, row, usable),
    platform === 'tiktok' && usable ? readOrNull(() => ports.readCreatorInfo(usable.accessToken)) : null,
  ]);
  const expiresAt = row.token_expires_at ? new Date(row.token_expires_at) : null;
  const report: Omit<ConnectionHealth, 'problems'> = {
    profileId: row.id,
    platform,
    handle: row.handle,
    status: row.status,
    statusReason: row.status_reason,
    checkedAt: now.toISOString(),
    token: {
      expiresAt: iso(expiresAt),
      expired: expiresAt !== null && expiresAt.getTime() <= now.getTime(),
      lastRefreshAt: iso(row.token_refreshed_at),
      nextRefreshAt: row.status === 'active' ? iso(nextRefreshAt(row, ports.aheadSeconds)) : null,
      lastRefreshError: row.refresh_error,
      lastRefreshErrorAt: iso(row.refresh_error_at),
    },
    scopes: {
      granted,
      needed: [...publishingScopesOf(platform, row.platform_user_id)],
      missing: granted ? missingPublishingScopes(platform, granted, row.platform_user_id) : null,
      ...(FIRST_COMMENT_SCOPES[platform] && {
        firstCommentMissing: granted ? missingFirstCommentScopes(platform, granted) : null,
      }),
    },
    quota,
    tiktok: platform === 'tiktok' ? tiktokFacts(ports.tiktokAudited, creatorInfo) : null,
  };
  return { ...report, problems: healthProblems(report, PLATFORM_NAMES[platform]) };
}

async function readQuota(
  ports: HealthPorts,
  row: ProfileRow,
  usable: { platformUserId: string; accessToken: string } | null,
): Promise<ConnectionHealth['quota']> {
  const source = QUOTA_SOURCES[row.platform as keyof typeof QUOTA_SOURCES] ?? null;
  const reader = ports.quotaReaders[row.platform];
  const none = (reason: string) => ({ source, used: null, total: null, remaining: null, windowSeconds: null, reason });
  if (!reader || !source) return none(NO_QUOTA_REASONS[row.platform as keyof typeof NO_QUOTA_REASONS]);
  if (!usable) return none('The profile has no usable token to ask with.');
  try {
    const q = await reader(usable);
    if (!q) return none(NO_QUOTA_REASONS[row.platform as keyof typeof NO_QUOTA_REASONS]);
    return {
      source,
      used: q.usage,
      total: q.total,
      remaining: Math.max(0, q.total - q.usage),
      windowSeconds: q.durationS,
      reason: null,
    };
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    return none(`${source} could not be read: ${err.message}`);
  }
}

async function readOrNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    return null;
  }
}
