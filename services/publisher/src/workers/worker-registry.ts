import { randomUUID } from 'node:crypto';
import { PeriodicLoop, type DatabaseSource, type Logger } from '@postbus/kit';
import { WorkerRepository } from './worker.repository';

/**
 * This process's identity and heartbeat. A post left in flight by a worker whose heartbeat
 * went stale is taken over (its outcome resolved with the platform); one owned by a live
 * worker is left alone, so a duplicate delivery never publishes alongside the owner.
 */
export class WorkerRegistry {
  readonly id = `wrk_${randomUUID()}`;
  /** Posts this process is handling right now. */
  readonly active = new Set<string>();
  private readonly workers: WorkerRepository;
  private readonly heartbeat: PeriodicLoop;

  constructor(
    source: DatabaseSource,
    private readonly heartbeatMs: number,
    logger: Logger,
  ) {
    this.workers = new WorkerRepository(source);
    this.heartbeat = new PeriodicLoop(() => this.workers.beat(this.id), {
      everyMs: heartbeatMs,
      unref: true,
      onError: (err) => logger.warn('worker heartbeat failed', { err: err.message }),
    });
  }

  /** A heartbeat older than this means the worker is gone. */
  get staleMs(): number {
    return this.heartbeatMs * 3;
  }

  /** The first beat is awaited: a process that cannot record itself does not start. */
  async start(): Promise<void> {
    await this.workers.beat(this.id);
    this.heartbeat.start();
  }

  /** After the consumer drained: nothing of ours is in flight, so others need not wait for our heartbeat to go stale. */
  async stop(): Promise<void> {
    await this.heartbeat.stop();
    await this.workers.remove(this.id).catch(() => undefined);
  }
}
