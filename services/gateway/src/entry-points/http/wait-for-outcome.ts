import type { Request, Response } from 'express';
import {
  AppError,
  compile,
  describeErrors,
  GetPostQuerySchema,
  POST_WAIT_DEFAULT_SECONDS,
  TERMINAL_POST_STATUSES,
  type PostStatus,
} from '@postbus/contracts';
import type { PostWaiters } from './post-waiters';

/** Header of GET /api/v1/posts/{id}: whether the post is in a final state (its answer will not change). */
export const FINAL_HEADER = 'Postbus-Final';

/**
 * After a result event, posts may not have written it yet (it hears the same event): the post is
 * read again after these pauses, a handful of reads per outcome, never a steady poll.
 */
const SETTLE_PAUSES_MS = [25, 50, 100, 200, 400, 800, 1600];

/**
 * ?waitFor=final&timeout=… as the contract types them; refused with validation_error. Values go
 * to the check as parsed: a string, or a list (refused) when the parameter is repeated.
 */
export function waitQuery(req: Request): { waitMs: number } | undefined {
  const raw: Record<string, unknown> = {};
  const { waitFor, timeout } = req.query;
  if (waitFor !== undefined) raw.waitFor = waitFor;
  if (timeout !== undefined)
    raw.timeout = typeof timeout === 'string' && /^\d{1,6}$/.test(timeout) ? Number(timeout) : timeout;
  const check = compile(GetPostQuerySchema);
  if (!check(raw)) throw new AppError('validation_error', `Invalid query: ${describeErrors(check.errors)}`);
  if (raw.waitFor !== 'final') return undefined;
  return { waitMs: (raw.timeout ?? POST_WAIT_DEFAULT_SECONDS) * 1000 };
}

export const isFinal = (post: { status: PostStatus }) => TERMINAL_POST_STATUSES.includes(post.status);

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The post once final, or as it is when `waitMs` ends or no waiter place is free. Undefined when
 * the caller went away first (its waiter is released at once).
 */
export async function readWhenFinal<T extends { status: PostStatus }>(
  waiters: PostWaiters,
  postId: string,
  waitMs: number,
  res: Response,
  read: () => Promise<T>,
): Promise<T | undefined> {
  let gone = false;
  let over = false;
  let stop!: () => void;
  const ended = new Promise<void>((resolve) => (stop = resolve));
  const onClose = () => {
    gone = true;
    stop();
  };
  res.once('close', onClose);
  const timer = setTimeout(() => {
    over = true;
    stop();
  }, waitMs);
  try {
    for (;;) {
      // Enter before reading, so an outcome between the read and the wait is not missed.
      const waiter = waiters.enter(postId);
      let written = false;
      try {
        const post = await read();
        if (gone) return undefined;
        if (isFinal(post) || !waiter || over) return post;
        written = (await Promise.race([waiter.woken, ended]))?.written ?? false;
      } finally {
        waiter?.release();
      }
      if (gone) return undefined;
      if (over || written) {
        const post = await read();
        if (isFinal(post) || over) return post;
        continue;
      }
      // Woken by a result event: posts hears the same event and may not have written it yet.
      for (const ms of SETTLE_PAUSES_MS) {
        await Promise.race([pause(ms), ended]);
        if (gone) return undefined;
        const post = await read();
        if (isFinal(post) || over) return post;
      }
    }
  } finally {
    clearTimeout(timer);
    res.off('close', onClose);
  }
}
