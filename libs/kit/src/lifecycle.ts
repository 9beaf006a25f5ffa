import type { Logger } from './logger';

type StopFn = () => Promise<void> | void;

/**
 * Start and stop in order: resources register a stop function as they come up and are
 * stopped in reverse, so the edge stops accepting before the work it feeds is drained.
 */
export class Lifecycle {
  private readonly stops: { name: string; fn: StopFn }[] = [];
  private stopping?: Promise<void>;

  constructor(private readonly logger: Logger) {}

  private startedAt?: Date;

  /** Marks the process as fully started (runMain does it once start() resolved); readiness waits for it. */
  markStarted(): void {
    this.startedAt ??= new Date();
  }

  get started(): boolean {
    return this.startedAt !== undefined;
  }

  /** True from the moment stop() is called: readiness answers 503 while the process drains. */
  get draining(): boolean {
    return this.stopping !== undefined;
  }

  onStop(name: string, fn: StopFn): void {
    this.stops.push({ name, fn });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const { name, fn } of [...this.stops].reverse()) {
        try {
          await fn();
        } catch (err) {
          this.logger.warn(`stopping ${name} failed`, { err: (err as Error).message });
        }
      }
    })();
    return this.stopping;
  }

  /** SIGTERM/SIGINT drain and exit; a second signal exits at once. */
  exitOnSignals(): void {
    let signalled = false;
    const handler = (signal: string) => {
      if (signalled) process.exit(1);
      signalled = true;
      this.logger.info('draining', { signal });
      this.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', handler);
    process.once('SIGINT', handler);
  }
}

/** Runs a service's start function as the process's main, exiting with a readable message on boot failure. */
export function runMain(start: () => Promise<{ lifecycle: Lifecycle }>): void {
  start().then(
    ({ lifecycle }) => {
      lifecycle.markStarted();
      lifecycle.exitOnSignals();
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
