export interface PeriodicLoopOptions<T> {
  everyMs: number;
  /** The first run starts at once rather than `everyMs` after start(). */
  immediately?: boolean;
  /** Whether a run's result asks for the next run at once (a full batch: more is waiting). */
  again?(result: T): boolean;
  onError?: (err: Error) => void;
  /** Let the process exit while the loop waits (upkeep no one waits for). */
  unref?: boolean;
}

/**
 * Runs a task every `everyMs`, one run at a time: the next run is planned when the last one ends,
 * so a slow run never overlaps the next. A run that throws is handed to `onError` and the loop
 * goes on. stop() plans no more runs and waits for the one in flight (drain).
 */
export class PeriodicLoop<T = unknown> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly task: () => Promise<T>,
    private readonly opts: PeriodicLoopOptions<T>,
  ) {}

  /** True once stop() was called: a long run may end early. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): this {
    this.plan(this.opts.immediately ? 0 : this.opts.everyMs);
    return this;
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runTask().then((again) => {
        this.running = undefined;
        this.plan(again ? 0 : this.opts.everyMs);
      });
    }, delayMs);
    if (this.opts.unref) this.timer.unref();
  }

  /** Runs the task once; answers whether the next run is due at once. */
  private async runTask(): Promise<boolean> {
    try {
      const result = await this.task();
      return this.opts.again?.(result) ?? false;
    } catch (err) {
      this.opts.onError?.(err as Error);
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
