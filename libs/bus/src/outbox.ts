import { randomUUID } from 'node:crypto';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import type { Logger, SqlRunner } from '@postbus/kit';
import { currentRequestId } from '@postbus/kit';
import type { EventPublisher, OutgoingEvent } from './events';

/** The outbox table, added to every service's migrations that announces state changes. */
export class CreateOutbox1732200000000 implements MigrationInterface {
  name = 'CreateOutbox1732200000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      name text NOT NULL,
      data jsonb NOT NULL,
      request_id text,
      occurred_at timestamptz NOT NULL DEFAULT now()
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox');
  }
}

/**
 * Writes events in the caller's transaction: they are published if and only if it commits.
 * An event without an id gets one here, so its row and the published message share it.
 */
export async function writeOutbox(manager: SqlRunner, events: OutgoingEvent[]): Promise<void> {
  if (!events.length) return;
  const values: unknown[] = [];
  const rows = events.map((e, i) => {
    values.push(
      e.id ?? randomUUID(),
      e.name,
      JSON.stringify(e.data),
      e.requestId ?? currentRequestId() ?? null,
      e.occurredAt ?? new Date().toISOString(),
    );
    const b = i * 5;
    return `($${b + 1}, $${b + 2}, $${b + 3}::jsonb, $${b + 4}, $${b + 5})`;
  });
  // An event with a named id (one fact announced again) that is still waiting to go out is not queued twice.
  await manager.query(
    `INSERT INTO outbox (id, name, data, request_id, occurred_at) VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING`,
    values,
  );
}

/** TypeORM answers [rows, affected] for a DELETE … RETURNING. */
function returnedRows<T extends object>(result: T[] | [T[], number]): T[] {
  return Array.isArray(result[0]) ? result[0] : (result as T[]);
}

interface OutboxRow {
  seq: string;
  id: string;
  name: string;
  data: unknown;
  request_id: string | null;
  occurred_at: Date;
}

export interface RelayOptions {
  batchSize?: number;
  /** How often the relay looks for rows when nobody kicked it. */
  pollMs?: number;
  /**
   * Longest wait for the broker's confirms of one batch. Past it the batch's transaction rolls
   * back (its rows stay, to be relayed again) instead of holding their locks for as long as the
   * broker is silent.
   */
  confirmTimeoutMs?: number;
}

const DEFAULT_CONFIRM_TIMEOUT_MS = 10_000;

/** Rejects when `promise` has not settled within `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Publishes committed outbox rows with publisher confirms, then deletes them. Rows are claimed
 * with SKIP LOCKED so several replicas can relay; a broker outage leaves the rows for later.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly publisher: Pick<EventPublisher, 'publish'>,
    private readonly logger: Logger,
    private readonly opts: RelayOptions = {},
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Relays soon: call after committing a transaction that wrote outbox rows. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    let next = this.opts.pollMs ?? 500;
    this.running = (async () => {
      try {
        let moved: number;
        do {
          this.again = false;
          moved = await this.relayBatch();
        } while ((moved === (this.opts.batchSize ?? 500) || this.again) && !this.stopped);
        this.failures = 0;
      } catch (err) {
        this.failures++;
        next = Math.min(100 * 2 ** this.failures, 5000);
        if (this.failures === 1 || this.failures % 20 === 0)
          this.logger.warn('outbox relay failed; rows kept for retry', { err: (err as Error).message });
      }
    })();
    await this.running;
    this.running = undefined;
    this.schedule(this.again ? 0 : next);
  }

  /**
   * Returns how many rows were published. The rows are taken and deleted in one statement; a
   * publish that fails or whose confirms are late rolls the delete back with the transaction, so
   * they are tried again (consumers deduplicate by event id).
   */
  async relayBatch(): Promise<number> {
    const confirmMs = this.opts.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
    return this.ds.transaction(async (m) => {
      // PostgreSQL's own bounds, should this process stall past the confirm deadline: a statement
      // is cancelled, and a transaction left idle is ended with its session, releasing the rows.
      await m.query(
        `SELECT set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $2, true)`,
        [String(confirmMs), String(confirmMs + 5_000)],
      );
      const result = await m.query<OutboxRow[] | [OutboxRow[], number]>(
        `DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING seq, id, name, data, request_id, occurred_at`,
        [this.opts.batchSize ?? 500],
      );
      const rows = returnedRows(result);
      if (!rows.length) return 0;
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      const events = rows.map((r) => ({
        id: r.id,
        name: r.name,
        data: r.data,
        requestId: r.request_id ?? undefined,
        occurredAt: new Date(r.occurred_at).toISOString(),
      }));
      await withDeadline(this.publisher.publish(events), confirmMs, "the broker's confirms");
      return rows.length;
    });
  }

  async backlog(): Promise<number> {
    const [{ n }] = await this.ds.query<{ n: number }[]>('SELECT count(*)::int AS n FROM outbox');
    return n;
  }

  /** Publishes what is left, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    try {
      while ((await this.relayBatch()) > 0);
    } catch {
      /* left for the next start */
    }
  }
}
