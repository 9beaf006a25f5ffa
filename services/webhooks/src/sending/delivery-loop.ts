import type { Logger } from '@postbus/kit';
import type { ClaimedDelivery, DeliveryRepository } from '../deliveries/delivery.repository';
import type { Endpoint, EndpointRepository } from '../endpoints/endpoint.repository';

export interface DeliveryLoopOptions {
  deliveries: DeliveryRepository;
  endpoints: EndpointRepository;
  /** Sends one leased delivery and records it; answers when it is due again, if it is. */
  attempt(claimed: ClaimedDelivery, endpoint: Endpoint | undefined): Promise<{ nextAttemptAt: Date | null }>;
  clock: () => Date;
  logger: Logger;
  /** How often the table is looked at when nobody kicked the loop. */
  pollMs: number;
  /** Deliveries sent at once by this process. */
  concurrency: number;
  /** How long a claimed delivery stays leased to this process (longer than one attempt can take). */
  leaseMs: number;
}

/**
 * Sends due deliveries: claims as many as it has free slots, sends them concurrently, and claims
 * again as slots free up. It looks every `pollMs`, when kicked (a new event or a manual retry), and
 * at the due time of a retry that comes sooner than the next look.
 */
export class DeliveryLoop {
  private timer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();
  private pumping = false;
  private again = false;
  private stopped = false;

  constructor(private readonly opts: DeliveryLoopOptions) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.kick();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.again = false;
        while (!this.stopped && this.inFlight.size < this.opts.concurrency) {
          const now = this.opts.clock();
          const claimed = await this.opts.deliveries.claimDue(
            now,
            this.opts.concurrency - this.inFlight.size,
            new Date(now.getTime() + this.opts.leaseMs),
          );
          if (!claimed.length) break;
          const endpoints = await this.opts.endpoints.findByIds([...new Set(claimed.map((c) => c.endpointId))]);
          for (const c of claimed) this.track(c, endpoints.get(c.endpointId));
        }
      } while (this.again && !this.stopped);
    } catch (err) {
      this.opts.logger.warn('claiming webhook deliveries failed; trying again at the next look', {
        err: (err as Error).message,
      });
    } finally {
      this.pumping = false;
    }
  }

  private track(claimed: ClaimedDelivery, endpoint: Endpoint | undefined): void {
    const work = this.opts
      .attempt(claimed, endpoint)
      .then(({ nextAttemptAt }) => {
        if (nextAttemptAt) this.wakeAt(nextAttemptAt);
      })
      .catch((err: Error) => {
        this.opts.logger.error('webhook delivery attempt failed to run; its lease will end and it is tried again', {
          deliveryId: claimed.id,
          err: err.message,
        });
      })
      .finally(() => {
        this.inFlight.delete(work);
        this.kick();
      });
    this.inFlight.add(work);
  }

  /** A retry due before the next regular look gets a look of its own. */
  private wakeAt(at: Date): void {
    const delay = at.getTime() - this.opts.clock().getTime();
    if (delay < this.opts.pollMs) setTimeout(() => this.kick(), Math.max(0, delay) + 5).unref();
  }

  /** Stops claiming and waits for the deliveries being sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }
}
