import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { databaseOf, type DatabaseSource } from '@postbus/kit';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface Delivery {
  id: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  /** The exact bytes sent and signed, the same on every attempt. */
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** Attempts made in the current automatic series (the position in the retry schedule). */
  scheduledAttempts: number;
  /** A manual retry: one attempt, no automatic retries after it. */
  singleAttempt: boolean;
  nextAttemptAt: Date | null;
  lastResponseCode: number | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery this process leased; only the holder of the token may record its outcome. */
export interface ClaimedDelivery extends Delivery {
  claimToken: string;
}

export type NewDelivery = Pick<Delivery, 'id' | 'endpointId' | 'accountId' | 'eventId' | 'eventType' | 'body'>;

export interface Attempt {
  attemptedAt: Date;
  durationMs: number;
  responseCode: number | null;
  error: string | null;
}

export interface AttemptOutcome extends Attempt {
  status: DeliveryStatus;
  scheduledAttempts: number;
  nextAttemptAt: Date | null;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  scheduled_attempts: number;
  single_attempt: boolean;
  next_attempt_at: Date | null;
  claim_token: string | null;
  last_response_code: number | null;
  delivered_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempt_no: number;
  attempted_at: Date;
  duration_ms: number;
  response_code: number | null;
  error: string | null;
}

const date = (d: Date | null) => (d ? new Date(d) : null);

function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    accountId: r.account_id,
    eventId: r.event_id,
    eventType: r.event_type,
    body: r.body,
    status: r.status,
    attemptCount: r.attempt_count,
    scheduledAttempts: r.scheduled_attempts,
    singleAttempt: r.single_attempt,
    nextAttemptAt: date(r.next_attempt_at),
    lastResponseCode: r.last_response_code,
    deliveredAt: date(r.delivered_at),
    createdAt: new Date(r.created_at),
  };
}

/** The data source, a transaction's manager, or the port: whichever transaction the caller holds. */
type Db = DatabaseSource;

/** The deliveries table is the durable queue of outgoing webhooks and their history. */
export class DeliveryRepository {
  constructor(readonly ds: DataSource) {}

  /** Queues one delivery per (endpoint, event), due now; an event seen again adds nothing. */
  async insertMany(db: Db, deliveries: NewDelivery[], now: Date): Promise<number> {
    if (!deliveries.length) return 0;
    const values: unknown[] = [];
    const rows = deliveries.map((d, i) => {
      values.push(d.id, d.endpointId, d.accountId, d.eventId, d.eventType, d.body);
      const b = i * 6;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, 'pending', $${deliveries.length * 6 + 1}::timestamptz, $${deliveries.length * 6 + 1}::timestamptz)`;
    });
    values.push(now);
    const inserted: { id: string }[] = await databaseOf(db).query(
      `WITH added AS (
         INSERT INTO deliveries (id, endpoint_id, account_id, event_id, event_type, body, status, next_attempt_at, created_at)
         VALUES ${rows.join(', ')} ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id)
       SELECT id FROM added`,
      values,
    );
    return inserted.length;
  }

  /**
   * Leases up to `limit` due deliveries until `leaseUntil`: claimed with FOR UPDATE SKIP LOCKED so
   * replicas never take the same row, and pushed forward so a process that dies mid-send leaves
   * them due again once the lease ends (at least once).
   */
  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    const rows: DeliveryRow[] = await this.ds.query(
      `WITH due AS (
         SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE deliveries d SET next_attempt_at = $3, claim_token = $4 FROM due WHERE d.id = due.id RETURNING d.*)
       SELECT * FROM claimed`,
      [now, limit, leaseUntil, token],
    );
    return rows.map((r) => ({ ...toDelivery(r), claimToken: token }));
  }

  /** Records an attempt and the delivery's next state, if this process still holds the lease. */
  async recordAttempt(source: Db, claimed: ClaimedDelivery, o: AttemptOutcome): Promise<boolean> {
    const m = databaseOf(source);
    const rows = await m.updateReturning<{ attempt_count: number }>(
      `UPDATE deliveries SET status = $3, attempt_count = attempt_count + 1, scheduled_attempts = $4, single_attempt = false,
         next_attempt_at = $5, last_response_code = $6, delivered_at = CASE WHEN $3 = 'succeeded' THEN $7::timestamptz ELSE delivered_at END, claim_token = NULL
       WHERE id = $1 AND claim_token = $2 AND status = 'pending' RETURNING attempt_count`,
      [claimed.id, claimed.claimToken, o.status, o.scheduledAttempts, o.nextAttemptAt, o.responseCode, o.attemptedAt],
    );
    if (!rows.length) return false;
    await m.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt_no, attempted_at, duration_ms, response_code, error) VALUES ($1, $2, $3, $4, $5, $6)`,
      [claimed.id, rows[0].attempt_count, o.attemptedAt, o.durationMs, o.responseCode, o.error],
    );
    return true;
  }

  /** Ends a leased delivery without an attempt (its endpoint was deleted or paused meanwhile). */
  async cancelClaimed(claimed: ClaimedDelivery): Promise<void> {
    await this.ds.query(
      `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, claim_token = NULL WHERE id = $1 AND claim_token = $2 AND status = 'pending'`,
      [claimed.id, claimed.claimToken],
    );
  }

  async cancelPending(m: Db, endpointId: string): Promise<void> {
    await databaseOf(m).query(
      `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, claim_token = NULL WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId],
    );
  }

  async findForEndpoint(endpointId: string, id: string): Promise<Delivery | undefined> {
    const rows: DeliveryRow[] = await this.ds.query('SELECT * FROM deliveries WHERE id = $1 AND endpoint_id = $2', [
      id,
      endpointId,
    ]);
    return rows[0] && toDelivery(rows[0]);
  }

  /** Newest first; `afterId` is the last delivery of the previous page. Undefined when it is not this endpoint's. */
  async page(endpointId: string, limit: number, afterId?: string): Promise<Delivery[] | undefined> {
    if (afterId && !(await this.findForEndpoint(endpointId, afterId))) return undefined;
    const rows: DeliveryRow[] = afterId
      ? await this.ds.query(
          `SELECT * FROM deliveries WHERE endpoint_id = $1
             AND (created_at, id) < (SELECT created_at, id FROM deliveries WHERE id = $3 AND endpoint_id = $1)
           ORDER BY created_at DESC, id DESC LIMIT $2`,
          [endpointId, limit, afterId],
        )
      : await this.ds.query(
          'SELECT * FROM deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
          [endpointId, limit],
        );
    return rows.map(toDelivery);
  }

  /** Every attempt of these deliveries, oldest first. */
  async attemptsOf(ids: string[]): Promise<Map<string, Attempt[]>> {
    const out = new Map<string, Attempt[]>(ids.map((id) => [id, []]));
    if (!ids.length) return out;
    const rows: AttemptRow[] = await this.ds.query(
      'SELECT * FROM delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt_no',
      [ids],
    );
    for (const r of rows) {
      out.get(r.delivery_id)?.push({
        attemptedAt: new Date(r.attempted_at),
        durationMs: r.duration_ms,
        responseCode: r.response_code,
        error: r.error,
      });
    }
    return out;
  }

  /**
   * Due now. A delivery still in its automatic series is only brought forward; a finished one
   * (succeeded, failed, cancelled) gets one more attempt.
   */
  async retryNow(endpointId: string, id: string, now: Date): Promise<Delivery | undefined> {
    const [row] = await databaseOf(this.ds).updateReturning<DeliveryRow>(
      `UPDATE deliveries SET single_attempt = (single_attempt OR status <> 'pending'), status = 'pending', next_attempt_at = $3, claim_token = NULL
        WHERE id = $1 AND endpoint_id = $2 RETURNING *`,
      [id, endpointId, now],
    );
    return row && toDelivery(row);
  }
}
