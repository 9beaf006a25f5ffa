import type { SqlRunner } from '@postbus/kit';

export interface PollCursor {
  cursor: string | null;
  backoffUntil: Date | null;
  skippedReason: string | null;
  skippedToken: string | null;
}

/** Why a profile's comments are not being read: its token was refused, or the platform asked to wait. */
export type PollSkipReason = 'token_revoked' | 'rate_limited' | 'profile_unavailable' | 'platform_error';

/** One row per polled profile: the platform cursor read up to, and why reading is paused. */
export class PollCursorRepository {
  constructor(private readonly ds: SqlRunner) {}

  async find(profileId: string, m: SqlRunner = this.ds): Promise<PollCursor | undefined> {
    const rows: {
      cursor: string | null;
      backoff_until: Date | null;
      skipped_reason: string | null;
      skipped_token: string | null;
    }[] = await m.query(
      'SELECT cursor, backoff_until, skipped_reason, skipped_token FROM poll_cursors WHERE profile_id = $1',
      [profileId],
    );
    const r = rows[0];
    return r
      ? {
          cursor: r.cursor,
          backoffUntil: r.backoff_until && new Date(r.backoff_until),
          skippedReason: r.skipped_reason,
          skippedToken: r.skipped_token,
        }
      : undefined;
  }

  /** The accounts with an enabled template, those read longest ago first. */
  async accountsToPoll(limit: number): Promise<string[]> {
    const rows: { account_id: string }[] = await this.ds.query(
      `SELECT t.account_id FROM templates t
       LEFT JOIN (SELECT account_id, min(coalesce(polled_at, 'epoch')) AS oldest FROM poll_cursors GROUP BY account_id) p
         ON p.account_id = t.account_id
       WHERE coalesce((t.document->>'enabled')::boolean, true)
       ORDER BY p.oldest NULLS FIRST, t.account_id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.account_id);
  }

  /** Read up to `cursor` (when one came): the pause and its reason are cleared. */
  async advance(
    m: SqlRunner,
    p: { profileId: string; accountId: string; platform: string },
    cursor: string | undefined,
    at: Date,
  ): Promise<void> {
    await m.query(
      `INSERT INTO poll_cursors (profile_id, account_id, platform, cursor, polled_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (profile_id) DO UPDATE SET cursor = coalesce(EXCLUDED.cursor, poll_cursors.cursor), polled_at = EXCLUDED.polled_at,
         backoff_until = NULL, skipped_reason = NULL, skipped_detail = NULL, skipped_token = NULL, updated_at = EXCLUDED.updated_at`,
      [p.profileId, p.accountId, p.platform, cursor ?? null, at],
    );
  }

  /** Records why the profile was not read; `until` pauses it, `token` (a digest) skips it while that token is held. */
  async skip(
    p: { profileId: string; accountId: string; platform: string },
    why: { reason: PollSkipReason; detail: string; until?: Date; token?: string },
    at: Date,
  ): Promise<void> {
    await this.ds.query(
      `INSERT INTO poll_cursors (profile_id, account_id, platform, backoff_until, skipped_reason, skipped_detail, skipped_token, polled_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (profile_id) DO UPDATE SET backoff_until = EXCLUDED.backoff_until, skipped_reason = EXCLUDED.skipped_reason,
         skipped_detail = EXCLUDED.skipped_detail, skipped_token = EXCLUDED.skipped_token, polled_at = EXCLUDED.polled_at,
         updated_at = EXCLUDED.updated_at`,
      [
        p.profileId,
        p.accountId,
        p.platform,
        why.until ?? null,
        why.reason,
        why.detail.slice(0, 1000),
        why.token ?? null,
        at,
      ],
    );
  }
}
