import type { DataSource, EntityManager } from 'typeorm';
import { Events, type PostDue, type PostWarning } from '@postbus/contracts';
import { envelope, namedEventId, writeOutbox, type OutgoingEvent } from '@postbus/bus';
import { databaseOf, type Database } from '@postbus/kit';
import type { Checkpoint } from '../publishing/adapters/platform-adapter';
import { SqlParams } from '../database/sql-params';
import { decision, type RateDecision } from '../rate-limits/rate-limiter';
import { takeRateSlotsSql, type RateSlotArgs } from '../rate-limits/rate-slot.repository';
import { decideClaim, type AttemptFacts } from './claim-decision';
import { isFollowingUp, type FollowUpsCheckpoint } from '../publishing/follow-ups/follow-up-plan';
import { followUpEvents } from '../publishing/follow-ups/follow-up-events';

/** A post has one outcome: its announcement and every repeat of it carry this id, so subscribers hear it once. */
export const outcomeEventId = (postId: string): string => namedEventId(`post-outcome:${postId}`);

/** What a publish gave: where the post lives and what the platform changed on the way. */
export interface PublishedOutcome {
  platformPostId: string;
  permalink: string | null;
  warnings?: PostWarning[];
}

/** post.published for the job, under the post's one outcome id. */
function publishedEvent(job: PostDue, r: PublishedOutcome, publishedAt: string): OutgoingEvent {
  const warnings = r.warnings?.length ? { warnings: r.warnings } : {};
  return envelope(
    Events.postPublished,
    {
      postId: job.postId,
      accountId: job.accountId,
      profileId: job.profileId,
      platform: job.platform,
      platformPostId: r.platformPostId,
      permalink: r.permalink,
      publishedAt,
      ...warnings,
    },
    { id: outcomeEventId(job.postId) },
  );
}

/** post.failed for the job, under the post's one outcome id. */
function failedEvent(job: PostDue, reason: string, failedAt: string): OutgoingEvent {
  return envelope(
    Events.postFailed,
    {
      postId: job.postId,
      accountId: job.accountId,
      profileId: job.profileId,
      platform: job.platform,
      reason,
      failedAt,
    },
    { id: outcomeEventId(job.postId) },
  );
}

/**
 * in_flight: a worker owns the post and may be calling the platform right now (or died doing so).
 * retry: a follow-up (retry, deferral, outcome check) is scheduled; nothing is being called.
 * waiting: the platform is processing the media; a status check is scheduled.
 * published / failed: final; a redelivery re-announces it.
 */
export type AttemptState = 'in_flight' | 'retry' | 'waiting' | 'published' | 'failed';

export interface AttemptRow {
  post_id: string;
  state: AttemptState;
  tries: number;
  seq: number;
  worker_id: string | null;
  checkpoint: Checkpoint | null;
  processing_since: Date | null;
  checks: number;
  next_at: Date | null;
  refreshed: boolean;
  exhausted: boolean;
  platform_post_id: string | null;
  permalink: string | null;
  failed_reason: string | null;
  finished_at: Date | null;
  /** When the post first waited on a platform's throttle (null: never). */
  throttled_since?: Date | null;
  updated_at?: Date | null;
}

/** Who owns an in-flight attempt: every write while in flight is conditional on both, so a presumed-dead worker cannot clobber its successor. */
export interface Fence {
  workerId: string;
  seq: number;
}

export type Claim =
  | { action: 'run'; row: AttemptRow; fence: Fence; mode: 'fresh' | 'retry' | 'check' | 'recover'; rate?: RateDecision }
  | { action: 'reannounce'; row: AttemptRow }
  | { action: 'park' }
  | { action: 'drop' };

export interface ClaimOptions {
  workerId: string;
  /** seq carried by a follow-up message; undefined for post.due itself. */
  messageSeq?: number;
  /** A worker whose heartbeat is older than this is presumed dead. */
  staleMs: number;
  /** A follow-up later than its due time by this much is presumed lost, and the next message takes over. */
  followUpGraceMs: number;
  /** A post seen for the first time takes its rate-limit slots in the same statement. */
  rateSlots?: RateSlotArgs | null;
}

export interface FollowUpState {
  state: 'retry' | 'waiting';
  checkpoint: Checkpoint | null;
  nextAt: Date;
  processingSince?: Date | null;
  checks?: number;
  /** A deferral (rate limit) hands back the try its claim counted: nothing was attempted. */
  uncount?: boolean;
}

export class AttemptRepository {
  private readonly db: Database;

  constructor(private readonly ds: DataSource) {
    this.db = databaseOf(ds);
  }

  async find(postId: string): Promise<AttemptRow | undefined> {
    const rows: AttemptRow[] = await this.ds.query('SELECT * FROM attempts WHERE post_id = $1', [postId]);
    return rows[0];
  }

  /**
   * Answers, under the row's lock, what a delivery of this post may do (`decideClaim`): start it,
   * continue the scheduled step, take over from a dead worker, re-announce a final outcome, wait
   * for a live owner (park), or nothing (a stale follow-up).
   */
  async claim(job: PostDue, opts: ClaimOptions): Promise<Claim> {
    const fresh = await this.insertFresh(job, opts);
    if (fresh) return fresh;
    return this.ds.transaction(async (m) => {
      const [row]: AttemptRow[] = await m.query('SELECT * FROM attempts WHERE post_id = $1 FOR UPDATE', [job.postId]);
      const facts: AttemptFacts = {
        state: row.state,
        ownerId: row.worker_id,
        ownerAlive: await this.isAlive(m, row.worker_id, opts.staleMs),
        seq: row.seq,
        nextAt: row.next_at === null ? null : new Date(row.next_at),
      };
      const decided = decideClaim(facts, {
        workerId: opts.workerId,
        messageSeq: opts.messageSeq,
        followUpGraceMs: opts.followUpGraceMs,
        now: new Date(),
      });
      if (decided.action === 'take') return this.take(m, row, opts.workerId, decided.mode);
      if (decided.action === 'reannounce') return { action: 'reannounce', row };
      return { action: decided.action };
    });
  }

  /**
   * The common case, a post seen for the first time, is one statement: the attempt is recorded (and counted)
   * before any platform call, and its rate-limit slots are taken (or the wait until one frees is answered).
   * Undefined when the post already has an attempt.
   */
  private async insertFresh(job: PostDue, opts: ClaimOptions): Promise<Claim | undefined> {
    const slots = opts.rateSlots;
    const params = new SqlParams();
    const insert = `INSERT INTO attempts (post_id, account_id, profile_id, platform, state, tries, seq, worker_id)
       VALUES (${params.list([job.postId, job.accountId, job.profileId, job.platform])}, 'in_flight', 1, 1, ${params.add(opts.workerId)})
       ON CONFLICT (post_id) DO NOTHING RETURNING *`;
    const sql = slots
      ? `WITH ins AS (${insert}) SELECT ins.*, ${takeRateSlotsSql(params, slots)} AS wait_ms FROM ins`
      : insert;
    const [inserted]: (AttemptRow & { wait_ms?: string })[] = await this.ds.query(sql, params.values);
    if (!inserted) return undefined;
    const { wait_ms: waitMs, ...row } = inserted;
    return {
      action: 'run',
      row,
      fence: { workerId: opts.workerId, seq: 1 },
      mode: 'fresh',
      ...(slots && { rate: decision(waitMs) }),
    };
  }

  /** Persists platform-side progress before the next call; false when the attempt is no longer ours. */
  async saveCheckpoint(postId: string, fence: Fence, checkpoint: Checkpoint): Promise<boolean> {
    const rows = await this.db.updateReturning(
      `UPDATE attempts SET checkpoint = $4::jsonb, updated_at = now() WHERE post_id = $1 AND worker_id = $2 AND seq = $3 AND state = 'in_flight' RETURNING post_id`,
      [postId, fence.workerId, fence.seq, JSON.stringify(checkpoint)],
    );
    return rows.length > 0;
  }

  /**
   * Notes that the post waits on a platform's throttle (the first time only) and answers how long
   * it has been waiting on throttles, by the database clock; null when the attempt is no longer ours.
   */
  async markThrottled(postId: string, fence: Fence): Promise<number | null> {
    const [row] = await this.db.updateReturning<{ waited_ms: string }>(
      `UPDATE attempts SET throttled_since = COALESCE(throttled_since, now()) WHERE post_id = $1 AND worker_id = $2 AND seq = $3 AND state = 'in_flight'
       RETURNING (EXTRACT(EPOCH FROM (now() - throttled_since)) * 1000)::bigint AS waited_ms`,
      [postId, fence.workerId, fence.seq],
    );
    return row ? Number(row.waited_ms) : null;
  }

  /** Remembers that the one token refresh this post is allowed has been used. */
  async markRefreshed(postId: string, fence: Fence): Promise<void> {
    await this.ds.query(
      `UPDATE attempts SET refreshed = true, updated_at = now() WHERE post_id = $1 AND worker_id = $2 AND seq = $3`,
      [postId, fence.workerId, fence.seq],
    );
  }

  /**
   * Hands the post to a scheduled follow-up: the follow-up message (already sent, carrying
   * fence.seq + 1) is the only one that may continue it.
   */
  async handOff(postId: string, fence: Fence, next: FollowUpState, lastError?: string): Promise<boolean> {
    const rows = await this.db.updateReturning(
      `UPDATE attempts SET state = $4, seq = seq + 1, worker_id = NULL, checkpoint = $5::jsonb, next_at = $6,
         processing_since = CASE WHEN $7::boolean THEN COALESCE($8::timestamptz, processing_since) ELSE processing_since END,
         checks = COALESCE($9::integer, checks), last_error = COALESCE($10, last_error), updated_at = now(),
         tries = GREATEST(0, tries - CASE WHEN $11 THEN 1 ELSE 0 END)
       WHERE post_id = $1 AND worker_id = $2 AND seq = $3 AND state = 'in_flight' RETURNING post_id`,
      [
        postId,
        fence.workerId,
        fence.seq,
        next.state,
        next.checkpoint ? JSON.stringify(next.checkpoint) : null,
        next.nextAt,
        next.processingSince !== undefined,
        next.processingSince ?? null,
        next.checks ?? null,
        lastError ?? null,
        next.uncount === true,
      ],
    );
    return rows.length > 0;
  }

  /** The outcome and its announcement commit together; false when the attempt was no longer ours. */
  async finishPublished(job: PostDue, fence: Fence, r: PublishedOutcome): Promise<boolean> {
    const publishedAt = new Date().toISOString();
    const event = publishedEvent(job, r, publishedAt);
    return this.finishAndAnnounce(
      job.postId,
      fence,
      (p) =>
        `state = 'published', platform_post_id = ${p.add(r.platformPostId)}, permalink = ${p.add(r.permalink)}, finished_at = ${p.add(publishedAt)}`,
      event,
    );
  }

  /**
   * The post is live and comments or replies follow it: the outcome is announced now (the post is
   * posted whatever becomes of them) and the attempt stays ours, in flight, with the follow-ups as
   * its checkpoint, so the attempt log guards them as it guarded the publish.
   */
  async publishedWithFollowUps(
    job: PostDue,
    fence: Fence,
    r: PublishedOutcome,
    checkpoint: FollowUpsCheckpoint,
  ): Promise<boolean> {
    const publishedAt = new Date().toISOString();
    const event = publishedEvent(job, r, publishedAt);
    const set = (p: SqlParams) =>
      `platform_post_id = ${p.add(r.platformPostId)}, permalink = ${p.add(r.permalink)}, finished_at = ${p.add(publishedAt)}, checkpoint = ${p.add(JSON.stringify(checkpoint))}::jsonb`;
    return this.updateAndAnnounce(job.postId, fence, set, [event], { keep: true });
  }

  /** Saves follow-up progress with the announcements of what settled in it; false when the attempt is no longer ours. */
  async saveFollowUps(
    job: PostDue,
    fence: Fence,
    checkpoint: FollowUpsCheckpoint,
    events: OutgoingEvent[],
  ): Promise<boolean> {
    return this.updateAndAnnounce(
      job.postId,
      fence,
      (p) => `checkpoint = ${p.add(JSON.stringify(checkpoint))}::jsonb`,
      events,
      { keep: true },
    );
  }

  /** Every follow-up settled: the attempt ends published, announcing what is left to announce. */
  async finishFollowUps(
    job: PostDue,
    fence: Fence,
    checkpoint: FollowUpsCheckpoint,
    events: OutgoingEvent[],
  ): Promise<boolean> {
    return this.updateAndAnnounce(
      job.postId,
      fence,
      (p) => `state = 'published', checkpoint = ${p.add(JSON.stringify(checkpoint))}::jsonb`,
      events,
      { keep: false },
    );
  }

  /** Fails the post and announces it; `exhausted` marks a failure after the last allowed attempt. */
  async finishFailed(job: PostDue, fence: Fence, reason: string, opts: { exhausted?: boolean } = {}): Promise<boolean> {
    const failedAt = new Date().toISOString();
    const event = failedEvent(job, reason, failedAt);
    return this.finishAndAnnounce(
      job.postId,
      fence,
      (p) =>
        `state = 'failed', failed_reason = ${p.add(reason)}, finished_at = ${p.add(failedAt)}, exhausted = ${p.add(opts.exhausted ?? false)}`,
      event,
    );
  }

  /** The outcome and its outbox row commit together, the row only if the attempt was still ours. */
  private finishAndAnnounce(
    postId: string,
    fence: Fence,
    set: (params: SqlParams) => string,
    event: OutgoingEvent,
  ): Promise<boolean> {
    return this.updateAndAnnounce(postId, fence, set, [event], { keep: false });
  }

  /** A change of an attempt we own and its outbox rows, committed together; `keep`: the attempt stays ours (in flight). */
  private async updateAndAnnounce(
    postId: string,
    fence: Fence,
    set: (params: SqlParams) => string,
    events: OutgoingEvent[],
    opts: { keep: boolean },
  ): Promise<boolean> {
    const params = new SqlParams();
    const sql = `UPDATE attempts SET ${set(params)}${opts.keep ? '' : ', worker_id = NULL'}, updated_at = now()
       WHERE post_id = ${params.add(postId)} AND worker_id = ${params.add(fence.workerId)} AND seq = ${params.add(fence.seq)} AND state = 'in_flight' RETURNING post_id`;
    return this.ds.transaction(async (m) => {
      const done = await databaseOf(m).updateReturning(sql, params.values);
      if (done.length === 0) return false;
      if (events.length) await writeOutbox(m, events);
      return true;
    });
  }

  /** Re-announces a known outcome (a redelivered post.due must not publish again). */
  async reannounce(job: PostDue, row: AttemptRow): Promise<void> {
    await this.ds.transaction(async (m) => {
      const at = new Date(row.finished_at ?? Date.now()).toISOString();
      const event =
        row.state === 'published'
          ? publishedEvent(job, { platformPostId: row.platform_post_id!, permalink: row.permalink }, at)
          : failedEvent(job, row.failed_reason ?? 'failed', at);
      // What became of its first comment and chain is announced again with it (same ids: heard once).
      const followUps =
        row.state === 'published' && isFollowingUp(row.checkpoint)
          ? followUpEvents(job, row.checkpoint.followUps.steps, new Date(row.updated_at ?? Date.now()))
          : [];
      await writeOutbox(m, [event, ...followUps]);
    });
  }

  /** Takes the attempt over; a retry or recovery counts as one more try (a processing check does not). */
  private async take(
    m: EntityManager,
    row: AttemptRow,
    workerId: string,
    mode: 'retry' | 'check' | 'recover',
  ): Promise<Claim> {
    const [taken] = await databaseOf(m).updateReturning<AttemptRow>(
      `UPDATE attempts SET state = 'in_flight', seq = seq + 1, worker_id = $2, updated_at = now(),
         tries = tries + CASE WHEN $3 THEN 1 ELSE 0 END,
         processing_since = CASE WHEN $3 THEN NULL ELSE processing_since END,
         checks = CASE WHEN $3 THEN 0 ELSE checks END
       WHERE post_id = $1 RETURNING *`,
      [row.post_id, workerId, mode !== 'check'],
    );
    return { action: 'run', row: taken, fence: { workerId, seq: taken.seq }, mode };
  }

  private async isAlive(m: EntityManager, workerId: string | null, staleMs: number): Promise<boolean> {
    if (!workerId) return false;
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM workers WHERE worker_id = $1 AND heartbeat_at > now() - ($2::integer * interval '1 millisecond')`,
      [workerId, staleMs],
    );
    return rows.length > 0;
  }
}
