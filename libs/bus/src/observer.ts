/**
 * What the bus reports about its own work, for metrics. The bus knows nothing of how it is
 * measured: a service passes an observer in (libs/metrics builds one over prom-client).
 * Every callback must be cheap and must not throw.
 */
export interface BusObserver {
  /** An RPC this process served: its name, `ok` or the error code answered, and how long it took. */
  rpcServed?(rpc: string, outcome: string, seconds: number): void;
  /** An RPC this process called: `ok` or the error code (a deadline is `service_unavailable`). */
  rpcCalled?(rpc: string, outcome: string, seconds: number): void;
  /** A consumer took an event for its first attempt, `waitedSeconds` after it occurred (outbox, broker and queue). */
  eventReceived?(queue: string, event: string, waitedSeconds: number): void;
  /** An event a consumer handled: acked (`ok`), sent to a delay queue (`retry`) or to `<queue>.dead` (`dead`). */
  eventHandled?(queue: string, event: string, outcome: EventOutcome, seconds: number): void;
}

export type EventOutcome = 'ok' | 'retry' | 'dead';

/** Calls one callback of the observer, if any; a broken observer never breaks the bus. */
export function notify<K extends keyof BusObserver>(
  observer: BusObserver | undefined,
  key: K,
  ...args: Parameters<NonNullable<BusObserver[K]>>
): void {
  const fn = observer?.[key] as ((...a: unknown[]) => void) | undefined;
  if (!fn) return;
  try {
    fn.apply(observer, args);
  } catch {
    /* metrics must never fail the work they measure */
  }
}

/** Seconds since `start` (a `process.hrtime.bigint()` reading). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
