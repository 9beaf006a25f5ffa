import type { DataSource, EntityManager } from 'typeorm';
import type { Post, PostStatus, PostWarning } from '@postbus/contracts';

export interface PostRow {
  id: string;
  account_id: string;
  request_id: string;
  profile_id: string;
  platform: string;
  status: PostStatus;
  caption: string;
  title: string | null;
  media_urls: string[];
  media_id: string | null;
  platform_meta: Record<string, unknown> | null;
  external_id: string | null;
  category: string | null;
  scheduled_time: Date | null;
  dispatched_at: Date | null;
  published_at: Date | null;
  failed_reason: string | null;
  permalink: string | null;
  platform_post_id: string | null;
  warnings: PostWarning[];
  created_at: Date;
  updated_at: Date;
}

export type NewPost = Pick<PostRow, 'id' | 'account_id' | 'request_id' | 'profile_id' | 'platform' | 'status' | 'caption' | 'title' | 'media_urls' | 'media_id' | 'platform_meta' | 'external_id' | 'category' | 'scheduled_time'>;

const JSON_COLUMNS = new Set<keyof NewPost>(['media_urls', 'platform_meta']);
const COLUMNS: (keyof NewPost)[] = ['id', 'account_id', 'request_id', 'profile_id', 'platform', 'status', 'caption', 'title', 'media_urls', 'media_id', 'platform_meta', 'external_id', 'category', 'scheduled_time'];

export function toPost(row: PostRow): Post {
  return {
    id: row.id,
    status: row.status,
    caption: row.caption,
    title: row.title,
    platforms: [row.platform],
    profileIds: [row.profile_id],
    mediaUrls: row.media_urls,
    scheduledTime: row.scheduled_time ? new Date(row.scheduled_time).toISOString() : null,
    publishedAt: row.published_at ? new Date(row.published_at).toISOString() : null,
    failedReason: row.failed_reason,
    externalId: row.external_id,
    permalink: row.permalink,
    warnings: row.warnings ?? [],
    platformMeta: row.platform_meta,
    category: row.category,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export interface PostQuery {
  statuses?: string[];
  platforms?: string[];
  profileId?: string;
  /** The caller's profile restriction: only these profiles' posts, cursor included (undefined: every profile). */
  visibleProfiles?: string[];
  externalId?: string;
  category?: string;
  from?: Date;
  to?: Date;
  afterId?: string;
  limit: number;
}

/** What an edit may change; absent keys stay as they are. */
export type PostChanges = Partial<Pick<PostRow, 'status' | 'caption' | 'title' | 'media_urls' | 'media_id' | 'platform_meta' | 'category' | 'scheduled_time'>>;

/** Statuses in which a post that has not been dispatched may still be edited or cancelled. */
export const EDITABLE_STATUSES: readonly PostStatus[] = ['draft', 'scheduled'];
export const CANCELLABLE_STATUSES: readonly PostStatus[] = ['draft', 'pending_approval', 'scheduled'];

/** The posts table; every query is filtered by the owning account. */
export class PostRepository {
  constructor(private readonly ds: DataSource) {}

  /** Inserts rows as they are, uncounted (seeding and tests; a create goes through insertCounted). */
  async insertMany(m: EntityManager, rows: NewPost[]): Promise<void> {
    if (!rows.length) return;
    const values: unknown[] = [];
    const tuples = rows.map((row, i) => {
      const base = i * COLUMNS.length;
      COLUMNS.forEach((c) => values.push(JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c]));
      return `(${COLUMNS.map((c, j) => `$${base + j + 1}${JSON_COLUMNS.has(c) ? '::jsonb' : ''}`).join(', ')})`;
    });
    await m.query(`INSERT INTO posts (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }

  /**
   * Inserts the rows and adds them to the account's count for the month of `now`, in one
   * statement (atomic, one round trip), only while the count stays within `perMonth`. Answers
   * the new count, or null when the rows would go beyond it (then nothing is written). The count
   * row is updated under its row lock, so two creates at once cannot both squeeze under.
   */
  async insertCounted(m: DataSource | EntityManager, rows: NewPost[], q: { accountId: string; now: Date; perMonth: number }): Promise<number | null> {
    const list = COLUMNS.join(', ');
    const [row]: { created: number | null }[] = await m.query(
      `WITH counted AS (
         INSERT INTO monthly_post_counts AS c (account_id, month, created)
         SELECT $1, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date, $3::int WHERE $3::int <= $4::int
         ON CONFLICT (account_id, month) DO UPDATE SET created = c.created + EXCLUDED.created WHERE c.created + EXCLUDED.created <= $4::int
         RETURNING created
       ), inserted AS (
         INSERT INTO posts (${list}) SELECT ${list} FROM json_populate_recordset(NULL::posts, $5::json) WHERE EXISTS (SELECT 1 FROM counted)
       )
       SELECT (SELECT created FROM counted) AS created`,
      [q.accountId, q.now, rows.length, q.perMonth, JSON.stringify(rows.map((r) => Object.fromEntries(COLUMNS.map((c) => [c, r[c]]))))],
    );
    return row.created ?? null;
  }

  async findForAccount(accountId: string, id: string, m: EntityManager = this.ds.manager): Promise<PostRow | undefined> {
    const rows: PostRow[] = await m.query('SELECT * FROM posts WHERE id = $1 AND account_id = $2', [id, accountId]);
    return rows[0];
  }

  /** The account's post when it is on one of `visibleProfiles` (undefined: any profile). */
  async findVisible(accountId: string, visibleProfiles: string[] | undefined, id: string): Promise<PostRow | undefined> {
    const rows: PostRow[] = await this.ds.query('SELECT * FROM posts WHERE id = $1 AND account_id = $2 AND ($3::text[] IS NULL OR profile_id = ANY($3::text[]))', [id, accountId, visibleProfiles ?? null]);
    return rows[0];
  }

  /** One page, newest first; `afterId` is the last post of the previous page. */
  async list(accountId: string, f: PostQuery): Promise<PostRow[]> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    const add = (clause: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (f.statuses) add((p) => `status = ANY(${p}::text[])`, f.statuses);
    if (f.platforms) add((p) => `platform = ANY(${p}::text[])`, f.platforms);
    if (f.profileId !== undefined) add((p) => `profile_id = ${p}`, f.profileId);
    let visible = '';
    if (f.visibleProfiles) {
      add((p) => `profile_id = ANY(${p}::text[])`, f.visibleProfiles);
      visible = ` AND profile_id = ANY($${params.length}::text[])`;
    }
    if (f.externalId !== undefined) add((p) => `external_id = ${p}`, f.externalId);
    if (f.category !== undefined) add((p) => `category = ${p}`, f.category);
    if (f.from) add((p) => `scheduled_time >= ${p}`, f.from);
    if (f.to) add((p) => `scheduled_time < ${p}`, f.to);
    if (f.afterId) add((p) => `(created_at, id) < (SELECT created_at, id FROM posts WHERE id = ${p} AND account_id = $1${visible})`, f.afterId);
    params.push(f.limit);
    return this.ds.query(`SELECT * FROM posts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`, params);
  }

  /** Posts this account created since the start of the calendar month (UTC), whatever became of them. */
  async countCreatedThisMonth(m: EntityManager, accountId: string, now: Date): Promise<number> {
    const rows: { created: number }[] = await m.query(
      `SELECT created FROM monthly_post_counts WHERE account_id = $1 AND month = date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date`,
      [accountId, now],
    );
    return rows[0]?.created ?? 0;
  }

  /**
   * Changes a post only while it is still in `fromStatus` and not dispatched, so an edit racing
   * the scheduler either lands before the claim or not at all. Undefined when it did not land.
   */
  async updateIfUndispatched(m: EntityManager, accountId: string, id: string, fromStatus: readonly PostStatus[], changes: PostChanges): Promise<PostRow | undefined> {
    const keys = Object.keys(changes) as (keyof PostChanges)[];
    const params: unknown[] = [id, accountId, fromStatus];
    const sets = keys.map((k) => {
      params.push(k === 'media_urls' || k === 'platform_meta' ? JSON.stringify(changes[k]) : changes[k]);
      return `${k} = $${params.length}${k === 'media_urls' || k === 'platform_meta' ? '::jsonb' : ''}`;
    });
    const rows: PostRow[] = await m.query(
      `WITH changed AS (
         UPDATE posts SET ${[...sets, 'updated_at = now()'].join(', ')}
         WHERE id = $1 AND account_id = $2 AND status = ANY($3::text[]) AND dispatched_at IS NULL RETURNING *
       ) SELECT * FROM changed`,
      params,
    );
    return rows[0];
  }

  /** Applies a publish result once: only a post still scheduled moves, so late or repeated results change nothing. */
  async markPosted(id: string, r: { publishedAt: string; permalink: string | null; platformPostId: string; warnings?: PostWarning[] }): Promise<boolean> {
    return this.updateCount(
      `UPDATE posts SET status = 'posted', published_at = $2, permalink = $3, platform_post_id = $4, warnings = $5::jsonb, failed_reason = NULL, updated_at = now()
       WHERE id = $1 AND status = 'scheduled' AND dispatched_at IS NOT NULL RETURNING id`,
      [id, r.publishedAt, r.permalink, r.platformPostId, JSON.stringify(r.warnings ?? [])],
    ).then((n) => n > 0);
  }

  async markFailed(id: string, reason: string): Promise<boolean> {
    const n = await this.updateCount(`UPDATE posts SET status = 'failed', failed_reason = $2, updated_at = now() WHERE id = $1 AND status = 'scheduled' AND dispatched_at IS NOT NULL RETURNING id`, [id, reason]);
    return n > 0;
  }

  private async updateCount(updateReturning: string, params: unknown[]): Promise<number> {
    const [{ n }] = await this.ds.query(`WITH changed AS (${updateReturning}) SELECT count(*)::int AS n FROM changed`, params);
    return n;
  }
}
