import { newId, type ActivityReason, type ReplyAction } from '@postbus/contracts';
import type { DataSource } from 'typeorm';
import { databaseOf, type Database, type SqlRunner } from '@postbus/kit';

/**
 * Where a comment stands for one account: decided to answer (`queued`), the reply call in flight
 * (`sending`), refused for a passing reason and due again (`retrying`), or done.
 */
export type ActivityState = 'queued' | 'sending' | 'retrying' | 'replied' | 'skipped' | 'failed';
/** The states in which a reply counts against a rule's caps. */
export const COUNTED_STATES: ActivityState[] = ['queued', 'sending', 'retrying', 'replied'];

export interface ActivityRecord {
  id: string;
  accountId: string;
  profileId: string;
  platform: string;
  commentId: string;
  postId: string | null;
  authorId: string | null;
  authorName: string | null;
  commentText: string;
  state: ActivityState;
  reason: ActivityReason;
  detail: string;
  ruleId: string | null;
  matchedKeywords: string[];
  action: ReplyAction | null;
  replyText: string | null;
  replyId: string | null;
  attempts: number;
  receivedAt: Date;
  createdAt: Date;
  repliedAt: Date | null;
}

export type NewActivity = Omit<ActivityRecord, 'id' | 'replyId' | 'attempts' | 'repliedAt'>;

interface ActivityRow {
  id: string;
  account_id: string;
  profile_id: string;
  platform: string;
  comment_id: string;
  post_id: string | null;
  author_id: string | null;
  author_name: string | null;
  comment_text: string;
  state: ActivityState;
  reason: ActivityReason;
  detail: string;
  rule_id: string | null;
  matched_keywords: string[];
  action: ReplyAction | null;
  reply_text: string | null;
  reply_id: string | null;
  attempts: number;
  received_at: Date;
  created_at: Date;
  replied_at: Date | null;
}

function toRecord(r: ActivityRow): ActivityRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    profileId: r.profile_id,
    platform: r.platform,
    commentId: r.comment_id,
    postId: r.post_id,
    authorId: r.author_id,
    authorName: r.author_name,
    commentText: r.comment_text,
    state: r.state,
    reason: r.reason,
    detail: r.detail,
    ruleId: r.rule_id,
    matchedKeywords: r.matched_keywords ?? [],
    action: r.action,
    replyText: r.reply_text,
    replyId: r.reply_id,
    attempts: r.attempts,
    receivedAt: new Date(r.received_at),
    createdAt: new Date(r.created_at),
    repliedAt: r.replied_at ? new Date(r.replied_at) : null,
  };
}

export interface ActivityFilter {
  states?: ActivityState[];
  profileIds?: string[];
  commentId?: string;
  /** Strictly older than this (created_at, id) position. */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** What auto-reply decided and did for each comment, one row per account and platform comment. */
export class ActivityRepository {
  private readonly db: Database;

  constructor(private readonly ds: DataSource) {
    this.db = databaseOf(ds);
  }

  async find(accountId: string, platform: string, commentId: string): Promise<ActivityRecord | undefined> {
    const rows: ActivityRow[] = await this.ds.query(
      'SELECT * FROM activity WHERE account_id = $1 AND platform = $2 AND comment_id = $3',
      [accountId, platform, commentId],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /** Records a decision once; a decision already recorded for the comment wins and is answered. */
  async insert(m: SqlRunner, a: NewActivity): Promise<ActivityRecord> {
    const rows: ActivityRow[] = await m.query(
      `INSERT INTO activity (id, account_id, profile_id, platform, comment_id, post_id, author_id, author_name, comment_text, state, reason, detail, rule_id, matched_keywords, action, reply_text, received_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
       ON CONFLICT (account_id, platform, comment_id) DO NOTHING RETURNING *`,
      [
        newId('act'),
        a.accountId,
        a.profileId,
        a.platform,
        a.commentId,
        a.postId,
        a.authorId,
        a.authorName,
        a.commentText,
        a.state,
        a.reason,
        a.detail,
        a.ruleId,
        a.matchedKeywords,
        a.action,
        a.replyText,
        a.receivedAt,
        a.createdAt,
      ],
    );
    if (rows[0]) return toRecord(rows[0]);
    const existing: ActivityRow[] = await m.query(
      'SELECT * FROM activity WHERE account_id = $1 AND platform = $2 AND comment_id = $3',
      [a.accountId, a.platform, a.commentId],
    );
    return toRecord(existing[0]);
  }

  /** Holds the caps of one rule on one profile until the transaction ends, so concurrent comments count one another. */
  async lockCaps(m: SqlRunner, accountId: string, ruleId: string, profileId: string): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `automation.caps.${accountId}.${profileId}.${ruleId}`,
    ]);
  }

  /** Replies a rule sent or is sending on a profile: under one post, and since a moment (the last hour). */
  async countForCaps(
    m: SqlRunner,
    q: { accountId: string; ruleId: string; profileId: string; postId: string | null; since: Date },
  ): Promise<{ onPost: number; since: number }> {
    const [row] = await m.query<{ on_post: number; since: number }>(
      `SELECT count(*) FILTER (WHERE $4::text IS NOT NULL AND post_id = $4)::int AS on_post, count(*) FILTER (WHERE created_at > $5)::int AS since
       FROM activity WHERE account_id = $1 AND rule_id = $2 AND profile_id = $3 AND state = ANY($6)`,
      [q.accountId, q.ruleId, q.profileId, q.postId, q.since, COUNTED_STATES],
    );
    return { onPost: row.on_post, since: row.since };
  }

  /** Takes a queued or retrying reply for sending; undefined when it is not (any longer) waiting to be sent. */
  async claimForSending(id: string): Promise<ActivityRecord | undefined> {
    const [row] = await this.db.updateReturning<ActivityRow>(
      `UPDATE activity SET state = 'sending', attempts = attempts + 1, updated_at = now() WHERE id = $1 AND state IN ('queued', 'retrying') RETURNING *`,
      [id],
    );
    return row && toRecord(row);
  }

  async markReplied(id: string, replyId: string, at: Date): Promise<void> {
    await this.ds.query(
      `UPDATE activity SET state = 'replied', reply_id = $2, replied_at = $3, updated_at = now() WHERE id = $1`,
      [id, replyId, at],
    );
  }

  /** Back to waiting, with why the last attempt was refused; the reply was certainly not posted. */
  async markRetrying(id: string, detail: string): Promise<void> {
    await this.ds.query(`UPDATE activity SET state = 'retrying', detail = $2, updated_at = now() WHERE id = $1`, [
      id,
      detail,
    ]);
  }

  async markFailed(id: string, reason: ActivityReason, detail: string): Promise<void> {
    await this.ds.query(
      `UPDATE activity SET state = 'failed', reason = $2, detail = $3, updated_at = now() WHERE id = $1`,
      [id, reason, detail],
    );
  }

  /** An account's activity, newest first. */
  async list(accountId: string, f: ActivityFilter): Promise<ActivityRecord[]> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (f.states) add((n) => `state = ANY($${n})`, f.states);
    if (f.profileIds) add((n) => `profile_id = ANY($${n})`, f.profileIds);
    if (f.commentId) add((n) => `comment_id = $${n}`, f.commentId);
    if (f.before) {
      params.push(f.before.createdAt, f.before.id);
      where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(f.limit);
    const rows: ActivityRow[] = await this.ds.query(
      `SELECT * FROM activity WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toRecord);
  }
}
