import type { WindowCount } from './rate-limit.repository';

/** The shared counter: adds `n` requests of a key and answers the key's count in its window. */
export interface CountingStore {
  hit(key: string, n: number): Promise<WindowCount>;
}

interface Lease {
  /** The key's count once every request of this lease is served. */
  count: number;
  /** Requests of the lease not served yet. */
  left: number;
  endsAt: number;
}

/** At most this share of what is left of a key's allowance is reserved at once… */
const LEASE_SHARE = 8;
/** …and never more than this many requests. */
const MAX_LEASE = 100;

/**
 * A replica's view of the shared per-key counter that writes to it once per lease instead of once
 * per request. A busy key with plenty of allowance left reserves several requests at once (an
 * eighth of what is left, at most 100); as the allowance runs down, leases shrink to a single
 * request, so the count is exact near the limit whatever the number of replicas. Requests a
 * replica reserved but did not serve count against the key until its window ends.
 */
export class LeasingRateLimitStore {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly store: CountingStore,
    private readonly limit: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<WindowCount> {
    for (;;) {
      const lease = this.leases.get(key);
      const now = this.clock();
      if (lease && lease.left > 0 && now < lease.endsAt) {
        lease.left--;
        return { count: lease.count - lease.left, resetMs: lease.endsAt - now };
      }
      // One lease taken at a time per key; requests arriving meanwhile share it.
      let pending = this.taking.get(key);
      if (!pending) {
        pending = this.take(key, lease, now).finally(() => this.taking.delete(key));
        this.taking.set(key, pending);
      }
      await pending;
    }
  }

  private async take(key: string, previous: Lease | undefined, now: number): Promise<void> {
    // A key seen in this window reserves a share of what is left; otherwise one request, to learn its count.
    const known = previous && now < previous.endsAt ? previous.count : undefined;
    const size =
      known === undefined ? 1 : Math.min(MAX_LEASE, Math.max(1, Math.floor((this.limit - known) / LEASE_SHARE)));
    const window = await this.store.hit(key, size);
    if (this.leases.size > 10_000) this.forgetEnded(now);
    this.leases.set(key, { count: window.count, left: size, endsAt: this.clock() + window.resetMs });
  }

  private forgetEnded(now: number): void {
    for (const [key, lease] of this.leases) if (lease.endsAt <= now) this.leases.delete(key);
  }
}
