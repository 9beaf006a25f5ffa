import type { ServiceProcess } from '../../tests/harness/service-process';

/** Samples every process's resident set every `everyMs` and keeps each one's peak (MB). */
export class RssSampler {
  private readonly peaks = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly processes: () => ServiceProcess[]) {}

  /** Each process's resident set now, in MB. */
  now(): Map<string, number> {
    return new Map(this.processes().map((p) => [p.name, p.memoryKb().rss / 1024]));
  }

  start(everyMs = 100): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  /** Stops sampling; answers each process's peak, read also from the kernel's high-water mark. */
  stop(): Map<string, number> {
    clearInterval(this.timer);
    this.sample();
    return new Map(this.peaks);
  }

  private sample(): void {
    for (const p of this.processes()) {
      const { rss } = p.memoryKb();
      if (rss) this.peaks.set(p.name, Math.max(this.peaks.get(p.name) ?? 0, rss / 1024));
    }
  }
}
