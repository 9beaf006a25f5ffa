import { PeriodicLoop, type Logger } from '@postbus/kit';
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
  private readonly failures = new Map<string, { count: number; notBefore: number }>();
  private readonly loop: PeriodicLoop;

  constructor(
    private readonly ports: CollectPorts,
    private readonly logger: Logger,
    private readonly opts: { offsetsMs: number[]; intervalMs: number; batch: number },
  ) {
    this.loop = new PeriodicLoop(() => this.runOnce(), { everyMs: opts.intervalMs, unref: true });
  }

  start(): void {
    this.loop.start();
  }

  /** One run under the collector's lock; answers undefined when another replica holds it. */
  async runOnce(): Promise<{ collected: number; failed: number; retrying: number } | undefined> {
    try {
      return await this.ports.engagement.whileLocked(LOCK, async () => {
        const now = Date.now();
        const result = await collectDueEngagement(this.ports, {
          ...this.opts,
          skip: (c) => (this.failures.get(keyOf(c))?.notBefore ?? 0) > now,
          shouldRetry: (c) => this.noteFailure(c, now),
        });
        if (result.collected || result.failed) this.logger.info('engagement collected', result);
        return result;
      });
    } catch (err) {
      this.logger.warn('engagement collection run failed; tried again at the next run', {
        err: (err as Error).message,
      });
      return undefined;
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

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

const keyOf = (c: DueCollection) => `${c.postId}:${c.stage}`;
