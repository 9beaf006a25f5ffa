import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Logger } from '@postbus/kit';

/**
 * This process's identity and heartbeat. A post left in flight by a worker whose heartbeat
 * went stale is taken over (its outcome resolved with the platform); one owned by a live
 * worker is left alone, so a duplicate delivery never publishes alongside the owner.
 */
export class WorkerRegistry {
  readonly id = `wrk_${randomUUID()}`;
  /** Posts this process is handling right now. */
  readonly active = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ds: DataSource,
    private readonly heartbeatMs: number,
    private readonly logger: Logger,
  ) {}

  /** A heartbeat older than this means the worker is gone. */
  get staleMs(): number {
    return this.heartbeatMs * 3;
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      this.beat().catch((err: Error) => this.logger.warn('worker heartbeat failed', { err: err.message }));
    }, this.heartbeatMs);
    this.timer.unref();
  }

  /** After the consumer drained: nothing of ours is in flight, so others need not wait for our heartbeat to go stale. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ds.query('DELETE FROM workers WHERE worker_id = $1', [this.id]).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    await this.ds.query(
      `INSERT INTO workers (worker_id) VALUES ($1) ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
      [this.id],
    );
  }
}
