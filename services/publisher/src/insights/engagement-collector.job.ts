import type { Logger } from '@postbus/kit';
import { collectDueEngagement, type CollectPorts } from './collect-engagement.use-case';
import type { DueCollection } from './engagement.repository';

/** Lock key of the collector: one publisher replica collects at a time. */
const LOCK = 'publisher:engagement-collector';
const RETRIES = 3;

/**
 * Every `intervalMs`, collects the engagement figures of published posts as each offset after
 * publishing passes (by default about 1 h, 24 h and 7 days). A passing platform failure is tried
 * at the next runs, a few times, with growing pauses; then the failure is kept for that stage.
 */
export class EngagementCollector {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;
  private readonly failures = new Map<string, { count: number; notBefore: number }>();

  constructor(
    private readonly ports: CollectPorts,
    private readonly logger: Logger,
    private readonly opts: { offsetsMs: number[]; intervalMs: number; batch: number },
  ) {}

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.opts.intervalMs);
    this.timer.unref();
  }

  /** One run under the collector's lock; answers undefined when another replica holds it. */
  async runOnce(): Promise<{ collected: number; failed: number; retrying: number } | undefined> {
    const runner = this.ports.engagement.ds.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [LOCK]);
      if (!locked) return undefined;
      try {
        const now = Date.now();
        const result = await collectDueEngagement(this.ports, {
          ...this.opts,
          skip: (c) => (this.failures.get(keyOf(c))?.notBefore ?? 0) > now,
          shouldRetry: (c) => this.noteFailure(c, now),
        });
        if (result.collected || result.failed) this.logger.info('engagement collected', result);
        return result;
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [LOCK]);
      }
    } catch (err) {
      this.logger.warn('engagement collection run failed; tried again at the next run', { err: (err as Error).message });
      return undefined;
    } finally {
      await runner.release();
    }
  }

  /** Counts a passing failure; true while the post and stage may be tried again. */
  private noteFailure(c: DueCollection, now: number): boolean {
    const key = keyOf(c);
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    if (count > RETRIES) {
      this.failures.delete(key);
      return false;
    }
    this.failures.set(key, { count, notBefore: now + this.opts.intervalMs * 2 ** count });
    if (this.failures.size > 10_000) this.failures.clear();
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

const keyOf = (c: DueCollection) => `${c.postId}:${c.stage}`;
