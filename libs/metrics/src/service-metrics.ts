import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRIC } from './metric-names';

/** Seconds; from a fast RPC (a few ms) to a slow platform publish with video processing (minutes). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PUBLISH_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];

export type DependencyCheck = () => Promise<boolean>;
/** A platform publish step: live, still processing on the platform, failed but worth retrying, or failed. */
export type PublishOutcome = 'published' | 'waiting' | 'transient_error' | 'failed';

/**
 * One service's metrics on a registry of its own (several services can share a process in
 * tests). Its rpcServed / rpcCalled / eventHandled methods make it the bus's observer.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly outboxes: { backlog(): Promise<number> }[] = [];
  private readonly dependencies = new Map<string, DependencyCheck>();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly rpcServer: Histogram<'rpc' | 'outcome'>;
  private readonly rpcClient: Histogram<'rpc' | 'outcome'>;
  private readonly events: Histogram<'queue' | 'event' | 'outcome'>;
  private readonly wait: Histogram<'queue' | 'event'>;
  private readonly retries: Counter<'queue' | 'event'>;
  private readonly deadLetters: Counter<'queue' | 'event'>;
  private readonly lag: Histogram;
  private readonly redispatches: Counter;
  private readonly publishTime: Histogram<'platform' | 'outcome'>;
  private readonly publishCount: Counter<'platform' | 'outcome'>;
  private readonly deferrals: Counter<'platform' | 'cause'>;
  private readonly webhookCount: Counter<'outcome'>;
  private readonly webhookTime: Histogram<'outcome'>;
  private readonly missingObjects: Counter<'operation'>;

  constructor(
    readonly service: string,
    opts: { processMetrics?: boolean } = {},
  ) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ service });
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    ({ http: this.http, rpcServer: this.rpcServer, rpcClient: this.rpcClient } = requestMetrics(registers));
    ({
      events: this.events,
      wait: this.wait,
      retries: this.retries,
      deadLetters: this.deadLetters,
    } = eventMetrics(registers));
    ({ lag: this.lag, redispatches: this.redispatches } = dispatchMetrics(registers));
    ({
      publishTime: this.publishTime,
      publishCount: this.publishCount,
      deferrals: this.deferrals,
    } = publishMetrics(registers));
    ({ webhookCount: this.webhookCount, webhookTime: this.webhookTime } = webhookMetrics(registers));
    ({ missingObjects: this.missingObjects } = storageMetrics(registers));
    registerOutboxBacklog(registers, this.outboxes);
    registerDependencyUp(registers, this.dependencies);
  }

  /** A gauge whose value is read when scraped (e.g. callers waiting in this process). */
  gaugeOf(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  rpcServed(rpc: string, outcome: string, seconds: number): void {
    this.rpcServer.observe({ rpc, outcome }, seconds);
  }

  rpcCalled(rpc: string, outcome: string, seconds: number): void {
    this.rpcClient.observe({ rpc, outcome }, seconds);
  }

  eventReceived(queue: string, event: string, waitedSeconds: number): void {
    this.wait.observe({ queue, event }, waitedSeconds);
  }

  eventHandled(queue: string, event: string, outcome: 'ok' | 'retry' | 'dead', seconds: number): void {
    this.events.observe({ queue, event, outcome }, seconds);
    if (outcome === 'retry') this.retries.inc({ queue, event });
    if (outcome === 'dead') this.deadLetters.inc({ queue, event });
  }

  httpAnswered(method: string, route: string, status: number, seconds: number): void {
    this.http.observe({ method, route, status: String(status) }, seconds);
  }

  dispatched(lagSeconds: number): void {
    this.lag.observe(Math.max(0, lagSeconds));
  }

  /** Posts announced again by the scheduler's safety net: each is a message lost or a publish slower than the limit. */
  redispatched(count: number): void {
    this.redispatches.inc(count);
  }

  published(platform: string, outcome: PublishOutcome, seconds: number): void {
    this.publishTime.observe({ platform, outcome }, seconds);
    this.publishCount.inc({ platform, outcome });
  }

  /** A post put off: by our own per-profile limits (`rate_limit`), the platform's throttling (`throttle`) or its full publishing quota (`publishing_quota`). */
  publishDeferred(platform: string, cause: 'rate_limit' | 'throttle' | 'publishing_quota'): void {
    this.deferrals.inc({ platform, cause });
  }

  /** One webhook delivery attempt: the endpoint answered 2xx (`delivered`) or not (`failed`; the policy may retry it). */
  webhookDelivered(outcome: 'delivered' | 'failed', seconds: number): void {
    this.webhookTime.observe({ outcome }, seconds);
    this.webhookCount.inc({ outcome });
  }

  /** Storage lost the object behind a media row: found while serving it, or while deduplicating an upload onto it. */
  mediaObjectMissing(operation: 'serve' | 'dedupe'): void {
    this.missingObjects.inc({ operation });
  }

  /** Reports the outbox backlog (OutboxRelay.backlog) at each scrape. */
  trackOutbox(relay: { backlog(): Promise<number> }): void {
    this.outboxes.push(relay);
  }

  /** Reports a dependency as up or down at each scrape. */
  trackDependency(name: string, check: DependencyCheck): void {
    this.dependencies.set(name, check);
  }

  /** The Prometheus text exposition of this service's metrics. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** HTTP requests answered and RPCs served or called. */
function requestMetrics(registers: Registry[]) {
  return {
    http: new Histogram({
      name: METRIC.httpRequestDuration,
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    rpcServer: new Histogram({
      name: METRIC.rpcServerDuration,
      help: 'RPCs served, by name and outcome (ok or the error code)',
      labelNames: ['rpc', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    rpcClient: new Histogram({
      name: METRIC.rpcClientDuration,
      help: 'RPCs called, by name and outcome (ok or the error code)',
      labelNames: ['rpc', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
  };
}

/** Events handled, how long they waited, and those retried or dead-lettered. */
function eventMetrics(registers: Registry[]) {
  return {
    events: new Histogram({
      name: METRIC.eventHandlingDuration,
      help: 'Events handled by a consumer, by queue, event and outcome (ok, retry, dead)',
      labelNames: ['queue', 'event', 'outcome'],
      buckets: PUBLISH_BUCKETS,
      registers,
    }),
    wait: new Histogram({
      name: METRIC.eventWait,
      help: 'Seconds from an event occurring to its first handling by a consumer',
      labelNames: ['queue', 'event'],
      buckets: LAG_BUCKETS,
      registers,
    }),
    retries: new Counter({
      name: METRIC.eventRetries,
      help: 'Events sent to a delay queue for another attempt',
      labelNames: ['queue', 'event'],
      registers,
    }),
    deadLetters: new Counter({
      name: METRIC.eventDeadLetters,
      help: 'Events parked in a dead-letter queue',
      labelNames: ['queue', 'event'],
      registers,
    }),
  };
}

/** How late due posts are dispatched, and those announced again. */
function dispatchMetrics(registers: Registry[]) {
  return {
    lag: new Histogram({
      name: METRIC.dispatchLag,
      help: "Seconds between a post's scheduled time and its dispatch",
      buckets: LAG_BUCKETS,
      registers,
    }),
    redispatches: new Counter({
      name: METRIC.postsRedispatched,
      help: 'Dispatched posts announced again because no outcome came back in time',
      registers,
    }),
  };
}

/** Platform publish calls and the posts put off without an attempt. */
function publishMetrics(registers: Registry[]) {
  return {
    publishTime: new Histogram({
      name: METRIC.publishDuration,
      help: 'Platform publish calls, by platform and outcome',
      labelNames: ['platform', 'outcome'],
      buckets: PUBLISH_BUCKETS,
      registers,
    }),
    publishCount: new Counter({
      name: METRIC.publishOutcomes,
      help: 'Platform publish calls, by platform and outcome',
      labelNames: ['platform', 'outcome'],
      registers,
    }),
    deferrals: new Counter({
      name: METRIC.publishDeferrals,
      help: 'Posts put off without counting an attempt, by platform and cause (rate_limit, throttle, publishing_quota)',
      labelNames: ['platform', 'cause'],
      registers,
    }),
  };
}

/** Webhook delivery attempts. */
function webhookMetrics(registers: Registry[]) {
  return {
    webhookCount: new Counter({
      name: METRIC.webhookDeliveries,
      help: 'Webhook delivery attempts, by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers,
    }),
    webhookTime: new Histogram({
      name: METRIC.webhookDeliveryDuration,
      help: 'Webhook delivery attempts, by outcome',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
  };
}

/** Media whose stored object was missing. */
function storageMetrics(registers: Registry[]) {
  return {
    missingObjects: new Counter({
      name: METRIC.mediaObjectsMissing,
      help: 'Media whose stored object was missing, by operation (serve, dedupe)',
      labelNames: ['operation'],
      registers,
    }),
  };
}

/** Rows in the registered outboxes not yet published, summed when scraped. */
function registerOutboxBacklog(registers: Registry[], outboxes: { backlog(): Promise<number> }[]): void {
  new Gauge({
    name: METRIC.outboxBacklog,
    help: 'Committed outbox rows not yet published to the broker',
    registers,
    async collect() {
      if (!outboxes.length) return;
      const counts = await Promise.all(outboxes.map((o) => o.backlog().catch(() => 0)));
      this.set(counts.reduce((a, b) => a + b, 0));
    },
  });
}

/** Whether each registered dependency answers, checked when scraped. */
function registerDependencyUp(registers: Registry[], dependencies: Map<string, DependencyCheck>): void {
  new Gauge({
    name: METRIC.dependencyUp,
    help: 'Whether the database or the broker answers this service (1) or not (0)',
    labelNames: ['dependency'],
    registers,
    async collect() {
      for (const [name, check] of dependencies)
        this.set({ dependency: name }, (await check().catch(() => false)) ? 1 : 0);
    },
  });
}
