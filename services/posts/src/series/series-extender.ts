import { PeriodicLoop, type Logger } from '@postbus/kit';
import type { PostsPorts } from '../posts/posts.ports';
import { extendDueSeries } from './series.use-cases';

/** Series looked at per run; a busy run is followed at once by the next. */
const SERIES_PER_RUN = 50;

/**
 * Keeps every active recurring post's occurrences created up to the horizon: one run now and then
 * every `everyMs`, never two at once in this process (replicas may overlap: each occurrence is
 * created once whoever gets there first).
 */
export class SeriesExtender {
  private readonly loop: PeriodicLoop<number>;

  constructor(ports: PostsPorts, logger: Logger, everyMs: number) {
    this.loop = new PeriodicLoop(() => extendDueSeries(ports, SERIES_PER_RUN), {
      everyMs,
      immediately: true,
      again: (extended) => extended > 0,
      onError: (err) =>
        logger.error('extending recurring posts failed; the next run tries again', { err: err.message }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Plans no more runs and waits for the one in flight. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
