import type { Request, Response } from 'express';
import {
  AppError,
  compile,
  describeErrors,
  GetPostQuerySchema,
  POST_WAIT_DEFAULT_SECONDS,
  type Post,
} from '@postbus/contracts';
import { waitForFinal, type PostWaiters, type WaitOutcome } from '@postbus/service';

export { isFinal } from '@postbus/service';

/** Header of GET /api/v1/posts/{id}: whether the post is in a final state (its answer will not change). */
export const FINAL_HEADER = 'Postbus-Final';

/**
 * ?waitFor=final&timeout=… as the contract types them; refused with validation_error. Values go
 * to the check as parsed: a string, or a list (refused) when the parameter is repeated.
 */
export function waitQuery(req: Request): { waitMs: number } | undefined {
  const raw: Record<string, unknown> = {};
  const { waitFor, timeout } = req.query;
  if (waitFor === undefined && timeout === undefined) return undefined; // a plain read: nothing to check
  if (waitFor !== undefined) raw.waitFor = waitFor;
  if (timeout !== undefined)
    raw.timeout = typeof timeout === 'string' && /^\d{1,6}$/.test(timeout) ? Number(timeout) : timeout;
  const check = compile(GetPostQuerySchema);
  if (!check(raw)) throw new AppError('validation_error', `Invalid query: ${describeErrors(check.errors)}`);
  if (raw.waitFor !== 'final') return undefined;
  return { waitMs: (raw.timeout ?? POST_WAIT_DEFAULT_SECONDS) * 1000 };
}

/**
 * The post once final, or as it is when `waitMs` ends or no waiter place is free (see
 * waitForFinal). Undefined when the caller went away first (its waiter is released at once).
 */
export async function readWhenFinal(
  waiters: PostWaiters,
  postId: string,
  waitMs: number,
  res: Response,
  read: () => Promise<Post>,
): Promise<WaitOutcome | undefined> {
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once('close', onClose);
  try {
    return await waitForFinal(waiters, { postId, waitMs, read, signal: gone.signal });
  } finally {
    res.off('close', onClose);
  }
}
