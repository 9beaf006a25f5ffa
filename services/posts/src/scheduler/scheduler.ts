import type { DataSource } from 'typeorm';
import type { Logger } from '@postbus/kit';
import { claimDuePosts, nextDueTime } from './claim-due-posts';

/** Shortest pause between runs, so posts due moments apart are claimed together. */
const MIN_GAP_MS = 20;

export interface SchedulerOptions {
  tickMs: number;
  batch: number;
  onDispatched: () => void;
  /** Told each dispatched post's lag behind its scheduled time, in seconds (metrics). */
  observeLag?: (seconds: number) => void;
  /** Cheap upkeep, at most once per tickMs (expiring approval requests). */
  housekeeping?: () => Promise<unknown>;
}

/**
 * Runs claimDuePosts at every tick and, between ticks, when the next known post falls due, so a
 * post scheduled ahead leaves within about MIN_GAP_MS of its time; one created for a time sooner
 * than the planned run waits at most until the next tick. Runs again at once while batches come
 * back full.
 */
export class Scheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private lastUpkeep = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
    private readonly opts: SchedulerOptions,
  ) {}

  start(): void {
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let delay = this.opts.tickMs;
    this.running = (async () => {
      try {
        let n: number;
        do {
          n = await claimDuePosts(this.ds, this.opts.batch, this.opts.observeLag);
          if (n > 0) this.opts.onDispatched();
        } while (n === this.opts.batch && !this.stopped);
        if (Date.now() - this.lastUpkeep >= this.opts.tickMs) {
          this.lastUpkeep = Date.now();
          await this.opts.housekeeping?.();
        }
      } catch (err) {
        this.logger.warn('scheduler tick failed', { err: (err as Error).message });
      }
      delay = await this.delayToNextRun();
    })();
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), delay);
  }

  /** Ticks align to multiples of tickMs, so "the next run" is a time callers can be told; a due post may come first. */
  private async delayToNextRun(): Promise<number> {
    const toTick = this.opts.tickMs - (Date.now() % this.opts.tickMs);
    const next = await nextDueTime(this.ds).catch(() => null);
    if (!next) return toTick;
    return Math.max(MIN_GAP_MS, Math.min(toTick, next.getTime() - Date.now()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

export function nextTick(now: Date, tickMs: number): Date {
  return new Date(Math.floor(now.getTime() / tickMs) * tickMs + tickMs);
}
