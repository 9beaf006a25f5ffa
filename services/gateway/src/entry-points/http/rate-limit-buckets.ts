import type { Request, Response } from 'express';
import { AppError } from '@postbus/contracts';
import type { WindowCount } from './rate-limit.repository';

/** One kind of count: keys `<name>:<id>`, each allowed `limit` requests per `windowMs` (a limit of 0 turns it off). */
export interface Bucket {
  name: string;
  limit: number;
  windowMs: number;
}

/** Where one key of a bucket stands after a request. */
export interface Verdict {
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
  over: boolean;
}

/** Counts a key's requests in its bucket's window (PgRateLimitStore bound to the window, maybe leased). */
export interface BucketStore {
  hit(key: string): Promise<WindowCount>;
}

/**
 * One bucket over the shared counter. A key found over its limit is remembered by this replica
 * until its window ends, so it can be refused again before anything is asked of anyone (the
 * database, auth) — and without counting, so a refusal writes nothing.
 */
export class BucketLimiter {
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    readonly bucket: Bucket,
    private readonly store: BucketStore,
    private readonly clock: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.bucket.limit > 0;
  }

  /** Counts one request of `id`. */
  async hit(id: string): Promise<Verdict> {
    const window = await this.store.hit(`${this.bucket.name}:${id}`);
    const verdict: Verdict = {
      limit: this.bucket.limit,
      remaining: Math.max(0, this.bucket.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil(window.resetMs / 1000)),
      over: window.count > this.bucket.limit,
    };
    if (verdict.over) {
      if (this.refusedUntil.size > 10_000) this.forgetEnded();
      this.refusedUntil.set(id, this.clock() + window.resetMs);
    }
    return verdict;
  }

  /** The refusal of `id` this replica still holds, if any; counts nothing. */
  refusal(id: string): Verdict | undefined {
    const until = this.refusedUntil.get(id);
    if (until === undefined) return undefined;
    const left = until - this.clock();
    if (left <= 0) {
      this.refusedUntil.delete(id);
      return undefined;
    }
    return { limit: this.bucket.limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(left / 1000)), over: true };
  }

  private forgetEnded(): void {
    const now = this.clock();
    for (const [id, until] of this.refusedUntil) if (until <= now) this.refusedUntil.delete(id);
  }
}

/**
 * RateLimit-Limit, -Remaining and -Reset (seconds) of the tightest bucket a request was counted
 * in: a bucket with fewer requests left replaces what an earlier one set.
 */
export function reportLimit(res: Response, verdict: Verdict): void {
  const shown = res.getHeader('RateLimit-Remaining');
  if (shown !== undefined && Number(shown) <= verdict.remaining) return;
  res.setHeader('RateLimit-Limit', String(verdict.limit));
  res.setHeader('RateLimit-Remaining', String(verdict.remaining));
  res.setHeader('RateLimit-Reset', String(verdict.resetSeconds));
}

/**
 * 429 rate_limited with Retry-After and the RateLimit-* headers of the bucket that refused. A
 * browser (asking for HTML first, as the sign-in form does) gets a short page saying the same.
 */
export function refuseRequest(req: Request, res: Response, verdict: Verdict, message: string): void {
  res.setHeader('RateLimit-Limit', String(verdict.limit));
  res.setHeader('RateLimit-Remaining', '0');
  res.setHeader('RateLimit-Reset', String(verdict.resetSeconds));
  res.setHeader('Retry-After', String(verdict.resetSeconds));
  res.setHeader('Cache-Control', 'no-store');
  const error = new AppError('rate_limited', `${message} Retry after ${verdict.resetSeconds} s.`);
  res.status(error.status);
  if (req.accepts(['json', 'html']) === 'html') {
    res
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Too many requests</title><h1>Too many requests</h1><p>${error.message}</p>`,
      );
  } else {
    res.json(error.toBody());
  }
}
