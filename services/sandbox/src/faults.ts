import type { Platform } from '@postbus/contracts';

export const FAULT_MODES = ['error', 'throttle', 'timeout', 'none'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/**
 * Which calls a fault hits: container/upload creation, status polls, the publish call, other reads,
 * byte uploads, a comment on a published post (Instagram and Facebook comments, a Threads reply's
 * publish, YouTube commentThreads.insert), or any of them.
 */
export const FAULT_OPERATIONS = ['create', 'status', 'publish', 'read', 'upload', 'comment', 'any'] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

export interface FaultSpec {
  platform: Platform;
  mode: Exclude<FaultMode, 'none'>;
  /** Default `publish`. */
  operation: FaultOperation;
  /** How many matching calls fail; default 1. */
  count: number;
  /** Platform error code (Meta `error.code`); defaults: error → 100 (or 2 with a 5xx status), throttle → 4. */
  code?: number;
  subcode?: number;
  /** HTTP status; defaults: error → 400 (500 for codes 1 and 2), throttle → 429. */
  status?: number;
  message?: string;
  /** TikTok `error.code` / YouTube `errors[0].reason` of the injected error (e.g. spam_risk_too_many_posts, quotaExceeded). */
  reason?: string;
  /**
   * timeout only: whether the platform does the work before the answer is lost (default true:
   * a publish goes live but the caller never hears of it, the case "outcome unknown" exists for).
   */
  applied: boolean;
}

export interface Fault extends FaultSpec {
  id: number;
}

/** Failures queued per platform; each matching call consumes one. */
export class FaultQueue {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault = { ...spec, id: this.nextId++ };
    this.faults.push(fault);
    return { ...fault };
  }

  /** The first queued fault of the platform that hits this operation, consumed by one call. */
  take(platform: Platform, operation: Exclude<FaultOperation, 'any'>): Fault | undefined {
    const fault = this.faults.find(
      (f) => f.platform === platform && (f.operation === operation || f.operation === 'any'),
    );
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }

  list(platform?: Platform): Fault[] {
    return this.faults.filter((f) => !platform || f.platform === platform).map((f) => ({ ...f }));
  }

  clear(platform?: Platform): void {
    this.faults = platform ? this.faults.filter((f) => f.platform !== platform) : [];
  }
}
