import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '@postbus/kit';
import { newId, type ConnectedAccount, type Profile, type ProfileStatus } from '@postbus/contracts';

export interface ProfileRow {
  id: string;
  account_id: string;
  platform: string;
  platform_user_id: string;
  handle: string;
  profile_url: string;
  profile_image_url: string | null;
  status: ProfileStatus;
  status_reason: string | null;
  /** Sealed by the vault; null once disconnected. */
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: Date | null;
  refresh_expires_at: Date | null;
  token_refreshed_at: Date | null;
  /** As the platform listed them at connect or the last refresh; null when it did not say. */
  granted_scopes: string[] | null;
  /** Why the last refresh failed; cleared by the next success. */
  refresh_error: string | null;
  refresh_error_at: Date | null;
  /** A refresh of a rotating refresh token went unanswered after it may have reached the platform; cleared by the next success. */
  refresh_unanswered_at: Date | null;
  connected_at: Date;
  updated_at: Date;
  disconnected_at: Date | null;
  /** Grows with every change of status (bigint: pg answers a string). */
  revision: string | number;
  /** Bluesky through OAuth: the session's DPoP private JWK (sealed), its PDS and its issuer; null otherwise. */
  dpop_jwk_enc?: string | null;
  pds_url?: string | null;
  oauth_issuer?: string | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toProfile(r: ProfileRow): Profile {
  return {
    id: r.id,
    accountId: r.account_id,
    platform: r.platform,
    handle: r.handle,
    profileUrl: r.profile_url,
    profileImageUrl: r.profile_image_url,
    status: r.status,
    statusReason: r.status_reason,
    tokenExpiresAt: iso(r.token_expires_at),
    connectedAt: new Date(r.connected_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    revision: Number(r.revision),
  };
}

/** Spec 2.1 plus status; never token material. */
export function toConnectedAccount(r: ProfileRow): ConnectedAccount {
  return {
    id: r.id,
    platform: r.platform,
    handle: r.handle,
    profileUrl: r.profile_url,
    profileImageUrl: r.profile_image_url,
    tokenExpiresAt: iso(r.token_expires_at),
    connectedAt: new Date(r.connected_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    status: r.status,
    statusReason: r.status_reason,
  };
}

export interface NewProfile {
  /** The id a new row takes (its tokens are sealed to it); a platform account connected before keeps its own. */
  id?: string;
  accountId: string;
  platform: string;
  platformUserId: string;
  handle: string;
  profileUrl: string;
  profileImageUrl: string | null;
  accessTokenEnc: string;
  /** Null keeps a stored refresh token: a platform that did not send a new one has not replaced it. */
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date | null;
  refreshExpiresAt?: Date | null;
  /** The scopes the grant holds; null when the platform did not list them. */
  grantedScopes?: string[] | null;
  /** Bluesky through OAuth: the sealed DPoP key, the PDS and the issuer (absent: an app-password or other profile, stored as null). */
  dpopJwkEnc?: string | null;
  pdsUrl?: string | null;
  oauthIssuer?: string | null;
}

export interface RefreshedTokens {
  accessTokenEnc: string;
  /** Null keeps the stored one. */
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date | null;
  refreshExpiresAt?: Date | null;
  /** Absent or null keeps the stored ones (Meta refreshes do not list scopes). */
  grantedScopes?: string[] | null;
}

/** Profiles of the connections schema. TypeORM's query runner here only; answers plain rows. */
export class ProfileRepository {
  private readonly db: Database;

  constructor(private readonly ds: DataSource) {
    this.db = databaseOf(ds);
  }

  /** For other services: active profiles by default, optionally by platform or id. */
  async list(
    accountId: string,
    q: { platforms?: string[]; ids?: string[]; includeInactive?: boolean },
  ): Promise<ProfileRow[]> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (q.platforms?.length) {
      params.push(q.platforms);
      where.push(`platform = ANY($${params.length})`);
    }
    if (q.ids) {
      params.push(q.ids);
      where.push(`id = ANY($${params.length})`);
    }
    if (!q.includeInactive) where.push(`status = 'active'`);
    return this.ds.query(`SELECT * FROM profiles WHERE ${where.join(' AND ')} ORDER BY connected_at, id`, params);
  }

  /** Connected (not disconnected) profiles, limited to `ids` unless 'all'. */
  async listConnected(accountId: string, ids: 'all' | string[]): Promise<ProfileRow[]> {
    const params: unknown[] = [accountId];
    let filter = '';
    if (ids !== 'all') {
      params.push(ids);
      filter = ' AND id = ANY($2)';
    }
    return this.ds.query(
      `SELECT * FROM profiles WHERE account_id = $1 AND status <> 'disconnected'${filter} ORDER BY connected_at, id`,
      params,
    );
  }

  /** Profiles connected to one platform account (active or needing a reconnect), in every Postbus account that connected it. */
  async findConnectedByPlatformUser(platform: string, platformUserId: string): Promise<ProfileRow[]> {
    return this.db.query<ProfileRow>(
      `SELECT * FROM profiles WHERE platform = $1 AND platform_user_id = $2 AND status <> 'disconnected' ORDER BY connected_at, id`,
      [platform, platformUserId],
    );
  }

  async find(accountId: string, id: string): Promise<ProfileRow | undefined> {
    const rows: ProfileRow[] = await this.ds.query('SELECT * FROM profiles WHERE id = $1 AND account_id = $2', [
      id,
      accountId,
    ]);
    return rows[0];
  }

  /**
   * Connecting the same platform account again updates the profile and keeps its id; a refresh
   * token the platform did not replace is kept.
   */
  async upsert(p: NewProfile, m: Database = this.db): Promise<ProfileRow & { inserted: boolean }> {
    const rows: (ProfileRow & { inserted: boolean })[] = await m.query(
      `INSERT INTO profiles (id, account_id, platform, platform_user_id, handle, profile_url, profile_image_url, access_token_enc, refresh_token_enc, token_expires_at, refresh_expires_at, token_refreshed_at, granted_scopes, dpop_jwk_enc, pds_url, oauth_issuer)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now(), $12, $13, $14, $15)
       ON CONFLICT (account_id, platform, platform_user_id) DO UPDATE SET
         handle = EXCLUDED.handle, profile_url = EXCLUDED.profile_url, profile_image_url = EXCLUDED.profile_image_url,
         access_token_enc = EXCLUDED.access_token_enc,
         refresh_token_enc = COALESCE(EXCLUDED.refresh_token_enc, profiles.refresh_token_enc),
         refresh_expires_at = CASE WHEN EXCLUDED.refresh_token_enc IS NULL THEN profiles.refresh_expires_at ELSE EXCLUDED.refresh_expires_at END,
         token_expires_at = EXCLUDED.token_expires_at, token_refreshed_at = now(), granted_scopes = EXCLUDED.granted_scopes,
         dpop_jwk_enc = EXCLUDED.dpop_jwk_enc, pds_url = EXCLUDED.pds_url, oauth_issuer = EXCLUDED.oauth_issuer,
         refresh_error = NULL, refresh_error_at = NULL, status = 'active', status_reason = NULL, disconnected_at = NULL, updated_at = now(),
         revision = profiles.revision + 1
       RETURNING *, (xmax = 0) AS inserted`,
      [
        p.id ?? newId('prf'),
        p.accountId,
        p.platform,
        p.platformUserId,
        p.handle,
        p.profileUrl,
        p.profileImageUrl,
        p.accessTokenEnc,
        p.refreshTokenEnc,
        p.tokenExpiresAt,
        p.refreshExpiresAt ?? null,
        p.grantedScopes ?? null,
        p.dpopJwkEnc ?? null,
        p.pdsUrl ?? null,
        p.oauthIssuer ?? null,
      ],
    );
    return rows[0];
  }

  /** Locks the profile for a refresh; with skipLocked, answers undefined while another refresh holds it. */
  async lock(
    m: Database,
    accountId: string | null,
    id: string,
    opts: { skipLocked?: boolean } = {},
  ): Promise<ProfileRow | undefined> {
    const params: unknown[] = [id];
    let filter = '';
    if (accountId !== null) {
      params.push(accountId);
      filter = ' AND account_id = $2';
    }
    const rows: ProfileRow[] = await m.query(
      `SELECT * FROM profiles WHERE id = $1${filter} FOR UPDATE${opts.skipLocked ? ' SKIP LOCKED' : ''}`,
      params,
    );
    return rows[0];
  }

  async saveRefreshed(m: Database, id: string, t: RefreshedTokens): Promise<ProfileRow> {
    const rows = await m.updateReturning<ProfileRow>(
      `UPDATE profiles SET access_token_enc = $2, refresh_token_enc = COALESCE($3, refresh_token_enc),
         refresh_expires_at = CASE WHEN $3::text IS NULL THEN refresh_expires_at ELSE $5 END,
         token_expires_at = $4, token_refreshed_at = now(), granted_scopes = COALESCE($6, granted_scopes), refresh_error = NULL, refresh_error_at = NULL, refresh_unanswered_at = NULL,
         status = 'active', status_reason = NULL, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, t.accessTokenEnc, t.refreshTokenEnc, t.tokenExpiresAt, t.refreshExpiresAt ?? null, t.grantedScopes ?? null],
    );
    return rows[0];
  }

  /** Remembers why a refresh failed (shown by the health report); the token and status stay as they are. */
  async recordRefreshError(id: string, reason: string): Promise<void> {
    await this.ds.query('UPDATE profiles SET refresh_error = $2, refresh_error_at = now() WHERE id = $1', [
      id,
      reason.slice(0, 1000),
    ]);
  }

  /** Remembers that a refresh may have rotated the refresh token without its answer coming back. */
  async recordRefreshUnanswered(id: string): Promise<void> {
    await this.ds.query('UPDATE profiles SET refresh_unanswered_at = now() WHERE id = $1', [id]);
  }

  async markNeedsReconnect(m: Database, id: string, reason: string): Promise<ProfileRow> {
    const rows = await m.updateReturning<ProfileRow>(
      `UPDATE profiles SET status = 'needs_reconnect', status_reason = $2, updated_at = now(), revision = revision + 1 WHERE id = $1 RETURNING *`,
      [id, reason],
    );
    return rows[0];
  }

  /** Erases the tokens and marks the profile disconnected; answers undefined when there is nothing to disconnect. */
  async disconnect(m: Database, accountId: string, id: string): Promise<ProfileRow | undefined> {
    const rows = await m.updateReturning<ProfileRow>(
      `UPDATE profiles SET status = 'disconnected', status_reason = 'Disconnected through the API.', access_token_enc = NULL, refresh_token_enc = NULL,
         token_expires_at = NULL, refresh_expires_at = NULL, disconnected_at = now(), updated_at = now(), revision = revision + 1
       WHERE id = $1 AND account_id = $2 AND status <> 'disconnected' RETURNING *`,
      [id, accountId],
    );
    return rows[0];
  }

  /**
   * Active profiles whose token is close to expiry: less than `aheadSeconds` left, or less than a
   * fifth of its lifetime; on `minAge.platforms`, only tokens at least `minAge.seconds` old.
   */
  async dueForRefresh(
    aheadSeconds: number,
    limit: number,
    minAge: { platforms: string[]; seconds: number } = { platforms: [], seconds: 0 },
  ): Promise<{ id: string }[]> {
    return this.ds.query(
      `SELECT id FROM profiles
       WHERE status = 'active' AND token_expires_at IS NOT NULL
         AND token_expires_at - now() <= GREATEST(make_interval(secs => $1), (token_expires_at - COALESCE(token_refreshed_at, connected_at)) / 5)
         AND (platform <> ALL($3) OR now() - COALESCE(token_refreshed_at, connected_at) >= make_interval(secs => $4))
       ORDER BY token_expires_at LIMIT $2`,
      [aheadSeconds, limit, minAge.platforms, minAge.seconds],
    );
  }

  /** Rows after `afterId` holding a token that does not start with `prefix` (another key, or the unbound form), locked for re-sealing. */
  async lockSealedOtherwise(
    m: Database,
    prefix: string,
    afterId: string,
    limit: number,
  ): Promise<Pick<ProfileRow, 'id' | 'access_token_enc' | 'refresh_token_enc' | 'dpop_jwk_enc'>[]> {
    return m.query(
      `SELECT id, access_token_enc, refresh_token_enc, dpop_jwk_enc FROM profiles
       WHERE id > $3 AND ((access_token_enc IS NOT NULL AND NOT starts_with(access_token_enc, $1))
          OR (refresh_token_enc IS NOT NULL AND NOT starts_with(refresh_token_enc, $1))
          OR (dpop_jwk_enc IS NOT NULL AND NOT starts_with(dpop_jwk_enc, $1)))
       ORDER BY id LIMIT $2 FOR UPDATE`,
      [prefix, limit, afterId],
    );
  }

  async saveSealed(
    m: Database,
    id: string,
    accessTokenEnc: string | null,
    refreshTokenEnc: string | null,
    /** Undefined leaves the DPoP key as it is. */
    dpopJwkEnc?: string | null,
  ): Promise<void> {
    if (dpopJwkEnc === undefined) {
      await m.query('UPDATE profiles SET access_token_enc = $2, refresh_token_enc = $3 WHERE id = $1', [
        id,
        accessTokenEnc,
        refreshTokenEnc,
      ]);
      return;
    }
    await m.query(
      'UPDATE profiles SET access_token_enc = $2, refresh_token_enc = $3, dpop_jwk_enc = $4 WHERE id = $1',
      [id, accessTokenEnc, refreshTokenEnc, dpopJwkEnc],
    );
  }

  /** How many stored tokens start with `prefix` (are sealed with that key). */
  async countSealedWith(prefix: string): Promise<number> {
    const [{ n }] = await this.ds.query<{ n: number }[]>(
      `SELECT (count(*) FILTER (WHERE starts_with(access_token_enc, $1)) + count(*) FILTER (WHERE starts_with(refresh_token_enc, $1))
         + count(*) FILTER (WHERE starts_with(dpop_jwk_enc, $1)))::int AS n FROM profiles`,
      [prefix],
    );
    return n;
  }
}
