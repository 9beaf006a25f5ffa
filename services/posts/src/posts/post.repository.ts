import type { DataSource, EntityManager } from 'typeorm';
import { databaseOf } from '@postbus/kit';
import type { FollowUpOutcome, Post, PostStatus, PostWarning } from '@postbus/contracts';
import { FOLLOW_UP_FAILED_WITH_POST } from '@postbus/contracts';

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
  /** The first comment asked for on this platform and its outcome (null: none). */
  first_comment: FollowUpOutcome | null;
  /** Threads: the chain of replies and each one's outcome (empty: none). */
  thread: FollowUpOutcome[];
  /** The rendition (normalize) not yet made that media_id names: the post is not dispatched before it is. */
  awaiting_media_id?: string | null;
  /** The cover frame made for the video (normalize, no cover given); the publisher passes it as the platform's cover image. */
  cover_media_id?: string | null;
  /** That cover frame, while it is being made: the post is not dispatched before it is. */
  awaiting_cover_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewPost = Pick<
  PostRow,
  | 'id'
  | 'account_id'
  | 'request_id'
  | 'profile_id'
  | 'platform'
  | 'status'
  | 'caption'
  | 'title'
  | 'media_urls'
  | 'media_id'
  | 'platform_meta'
  | 'external_id'
  | 'category'
  | 'scheduled_time'
> &
  Partial<Pick<PostRow, 'first_comment' | 'thread' | 'awaiting_media_id' | 'cover_media_id' | 'awaiting_cover_id'>>;

const JSON_COLUMNS = new Set<keyof NewPost>(['media_urls', 'platform_meta', 'thread']);
const COLUMNS: (keyof NewPost)[] = [
  'id',
  'account_id',
  'request_id',
  'profile_id',
  'platform',
  'status',
  'caption',
  'title',
  'media_urls',
  'media_id',
  'platform_meta',
  'external_id',
  'category',
  'scheduled_time',
  'first_comment',
  'thread',
  'awaiting_media_id',
  'cover_media_id',
  'awaiting_cover_id',
];

/** A row's value of a column as stored: no first comment is SQL NULL, no chain an empty list. */
function columnValue(row: NewPost, c: keyof NewPost): unknown {
  if (c === 'first_comment') return row.first_comment ? JSON.stringify(row.first_comment) : null;
  if (c === 'thread') return JSON.stringify(row.thread ?? []);
  return JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c];
}

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
    firstComment: row.first_comment ?? null,
    thread: row.thread ?? [],
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
export type PostChanges = Partial<
  Pick<
    PostRow,
    | 'status'
    | 'caption'
    | 'title'
    | 'media_urls'
    | 'media_id'
    | 'platform_meta'
    | 'category'
    | 'scheduled_time'
    | 'awaiting_media_id'
    | 'cover_media_id'
    | 'awaiting_cover_id'
  >
>;

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
      COLUMNS.forEach((c) => values.push(columnValue(row, c)));
      return `(${COLUMNS.map((c, j) => `$${base + j + 1}${JSON_COLUMNS.has(c) || c === 'first_comment' ? '::jsonb' : ''}`).join(', ')})`;
    });
    await m.query(`INSERT INTO posts (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }

  /**
   * Inserts the rows and adds them to the account's count for the month of `now`, in one
   * statement (atomic, one round trip), only while the count stays within `perMonth`; with them,
   * the `answers` a repeated request gets (create_requests). Answers the new count, or null when
   * the rows would go beyond it (then nothing is written). The count row is updated under its row
   * lock, so two creates at once cannot both squeeze under; run outside a transaction, the
   * statement holds that lock only while PostgreSQL runs and commits it, never across a round trip.
   */
  async insertCounted(
    m: DataSource | EntityManager,
    rows: NewPost[],
    q: { accountId: string; now: Date; perMonth: number },
    answers: { kind: string; key: string; payload_hash: string; response: unknown }[] = [],
  ): Promise<number | null> {
    const list = COLUMNS.join(', ');
    const [row]: { created: number | null }[] = await m.query(
      `WITH counted AS (
         INSERT INTO monthly_post_counts AS c (account_id, month, created)
         SELECT $1, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date, $3::int WHERE $3::int <= $4::int
         ON CONFLICT (account_id, month) DO UPDATE SET created = c.created + EXCLUDED.created WHERE c.created + EXCLUDED.created <= $4::int
         RETURNING created
       ), inserted AS (
         INSERT INTO posts (${list}) SELECT ${list} FROM json_populate_recordset(NULL::posts, $5::json) WHERE EXISTS (SELECT 1 FROM counted)
       ), answered AS (
         INSERT INTO create_requests (account_id, kind, key, payload_hash, response)
         SELECT $1, a.kind, a.key, a.payload_hash, a.response
         FROM json_to_recordset($6::json) AS a(kind text, key text, payload_hash text, response jsonb)
         WHERE EXISTS (SELECT 1 FROM counted)
       )
       SELECT (SELECT created FROM counted) AS created`,
      [
        q.accountId,
        q.now,
        rows.length,
        q.perMonth,
        JSON.stringify(
          rows.map((r) =>
            Object.fromEntries(COLUMNS.map((c) => [c, c === 'thread' ? (r.thread ?? []) : (r[c] ?? null)])),
          ),
        ),
        JSON.stringify(answers),
      ],
    );
    return row.created ?? null;
  }

  async findForAccount(
    accountId: string,
    id: string,
    m: EntityManager = this.ds.manager,
  ): Promise<PostRow | undefined> {
    const rows: PostRow[] = await m.query('SELECT * FROM posts WHERE id = $1 AND account_id = $2', [id, accountId]);
    return rows[0];
  }

  /** The account's post when it is on one of `visibleProfiles` (undefined: any profile). */
  async findVisible(
    accountId: string,
    visibleProfiles: string[] | undefined,
    id: string,
  ): Promise<PostRow | undefined> {
    const rows: PostRow[] = await this.ds.query(
      'SELECT * FROM posts WHERE id = $1 AND account_id = $2 AND ($3::text[] IS NULL OR profile_id = ANY($3::text[]))',
      [id, accountId, visibleProfiles ?? null],
    );
    return rows[0];
  }

  /** The distinct profiles of these posts of the account. */
  async profilesOf(m: EntityManager, accountId: string, ids: string[]): Promise<string[]> {
    const rows: { profile_id: string }[] = await m.query(
      'SELECT DISTINCT profile_id FROM posts WHERE account_id = $1 AND id = ANY($2::text[])',
      [accountId, ids],
    );
    return rows.map((r) => r.profile_id);
  }

  /** Those of these posts of the account that are scheduled and not yet dispatched, in scheduled order. */
  async undispatchedAmong(m: EntityManager, accountId: string, ids: string[]): Promise<string[]> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM posts WHERE account_id = $1 AND id = ANY($2::text[]) AND status = 'scheduled' AND dispatched_at IS NULL ORDER BY scheduled_time, id`,
      [accountId, ids],
    );
    return rows.map((r) => r.id);
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
    if (f.afterId)
      add(
        (p) => `(created_at, id) < (SELECT created_at, id FROM posts WHERE id = ${p} AND account_id = $1${visible})`,
        f.afterId,
      );
    params.push(f.limit);
    return this.ds.query(
      `SELECT * FROM posts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
  }

  /** Posts this account created since the start of the calendar month (UTC), whatever became of them. */
  /** How many of the account's posts (on `profileIds` only, when given) are in each status; statuses without posts are absent. */
  async countByStatus(accountId: string, profileIds?: string[]): Promise<{ status: PostStatus; n: number }[]> {
    return this.ds.query(
      'SELECT status, count(*)::int AS n FROM posts WHERE account_id = $1 AND ($2::text[] IS NULL OR profile_id = ANY($2::text[])) GROUP BY status',
      [accountId, profileIds ?? null],
    );
  }

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
  async updateIfUndispatched(
    m: EntityManager,
    accountId: string,
    id: string,
    fromStatus: readonly PostStatus[],
    changes: PostChanges,
  ): Promise<PostRow | undefined> {
    const keys = Object.keys(changes) as (keyof PostChanges)[];
    const params: unknown[] = [id, accountId, fromStatus];
    const sets = keys.map((k) => {
      params.push(k === 'media_urls' || k === 'platform_meta' ? JSON.stringify(changes[k]) : changes[k]);
      return `${k} = $${params.length}${k === 'media_urls' || k === 'platform_meta' ? '::jsonb' : ''}`;
    });
    const [row] = await databaseOf(m).updateReturning<PostRow>(
      `UPDATE posts SET ${[...sets, 'updated_at = now()'].join(', ')}
        WHERE id = $1 AND account_id = $2 AND status = ANY($3::text[]) AND dispatched_at IS NULL RETURNING *`,
      params,
    );
    return row;
  }

  /** Applies a publish result once: only a post still scheduled moves, so late or repeated results change nothing. */
  async markPosted(
    id: string,
    r: { publishedAt: string; permalink: string | null; platformPostId: string; warnings?: PostWarning[] },
  ): Promise<boolean> {
    return this.updateCount(
      `UPDATE posts SET status = 'posted', published_at = $2, permalink = $3, platform_post_id = $4, warnings = $5::jsonb, failed_reason = NULL, updated_at = now()
       WHERE id = $1 AND status = 'scheduled' AND dispatched_at IS NOT NULL RETURNING id`,
      [id, r.publishedAt, r.permalink, r.platformPostId, JSON.stringify(r.warnings ?? [])],
    ).then((n) => n > 0);
  }

  /** A failed post publishes nothing after itself: its pending first comment and chain parts fail with it. */
  async markFailed(id: string, reason: string): Promise<boolean> {
    const n = await this.updateCount(
      `UPDATE posts SET status = 'failed', failed_reason = $2, updated_at = now(),
         first_comment = CASE WHEN jsonb_typeof(first_comment) = 'object' THEN first_comment || jsonb_build_object('status', 'failed', 'failedReason', $3::text) ELSE first_comment END,
         thread = (SELECT coalesce(jsonb_agg(part || jsonb_build_object('status', 'failed', 'failedReason', $3::text) ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(thread) WITH ORDINALITY AS t(part, i))
       WHERE id = $1 AND status = 'scheduled' AND dispatched_at IS NOT NULL RETURNING id`,
      [id, reason, FOLLOW_UP_FAILED_WITH_POST],
    );
    return n > 0;
  }

  /** The settled outcome of a post's first comment; repeating it changes nothing. */
  async setFirstComment(id: string, outcome: FollowUpOutcome): Promise<boolean> {
    return (
      (await this.updateCount(
        `UPDATE posts SET first_comment = $2::jsonb, updated_at = now() WHERE id = $1 AND first_comment IS DISTINCT FROM $2::jsonb RETURNING id`,
        [id, JSON.stringify(outcome)],
      )) > 0
    );
  }

  /** The settled outcome of a post's Threads chain; repeating it changes nothing. */
  async setThread(id: string, outcome: FollowUpOutcome[]): Promise<boolean> {
    return (
      (await this.updateCount(
        `UPDATE posts SET thread = $2::jsonb, updated_at = now() WHERE id = $1 AND thread IS DISTINCT FROM $2::jsonb RETURNING id`,
        [id, JSON.stringify(outcome)],
      )) > 0
    );
  }

  private async updateCount(sql: string, params: unknown[]): Promise<number> {
    return (await databaseOf(this.ds).updateReturning(sql, params)).length;
  }
}
