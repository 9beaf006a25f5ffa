import { FOLLOW_UP_FAILED_WITH_POST, TERMINAL_POST_STATUSES, type Post, type PostStatus } from '@postbus/contracts';
import type { OutcomeFacts, PostWaiters, Wakening } from './post-waiters';

export const isFinal = (post: { status: PostStatus }) => TERMINAL_POST_STATUSES.includes(post.status);

/**
 * After a result event carrying no facts to lay over the post, posts may not have written it yet
 * (it hears the same event): the post is read again after these pauses, a handful of reads per
 * outcome, never a steady poll.
 */
const SETTLE_PAUSES_MS = [25, 50, 100, 200, 400, 800, 1600];

/**
 * A scheduled post as posts writes it when it applies the result: posts moves only a dispatched,
 * still scheduled post, and a result event exists only for a dispatched one, so the facts laid
 * over a post last read `scheduled` are what it becomes (the one exception, two contradicting
 * results for one post, the publisher's attempt log rules out). Undefined for any other post.
 */
export function laidOver(post: Post, facts: OutcomeFacts): Post | undefined {
  if (post.status !== 'scheduled') return undefined;
  if (facts.status === 'posted')
    return {
      ...post,
      status: 'posted',
      publishedAt: facts.publishedAt,
      permalink: facts.permalink,
      warnings: facts.warnings,
      failedReason: null,
      updatedAt: facts.publishedAt,
    };
  // A failed post publishes nothing after itself: its first comment and chain parts fail with it.
  const failed = <T extends object>(part: T) => ({
    ...part,
    status: 'failed' as const,
    failedReason: FOLLOW_UP_FAILED_WITH_POST,
  });
  return {
    ...post,
    status: 'failed',
    failedReason: facts.reason,
    firstComment: post.firstComment && failed(post.firstComment),
    thread: post.thread.map(failed),
    updatedAt: facts.failedAt,
  };
}

export interface WaitForFinal {
  postId: string;
  waitMs: number;
  /** Reads the post as the caller may see it (posts' answer). */
  read: () => Promise<Post>;
  /** The caller left: the wait ends at once and answers nothing. */
  signal?: AbortSignal;
  /** Hears each read and, every `heartbeatMs` while nothing changes, the post as last read (progress). */
  report?: (post: Post, elapsedMs: number) => void;
  heartbeatMs?: number;
}

/** The post the wait ends with; `stored` is false when it is posts' last answer with a result event's facts laid over. */
export interface WaitOutcome {
  post: Post;
  stored: boolean;
}

/**
 * The post once final, or as it is when `waitMs` ends or no waiter place is free; undefined when
 * the caller left first. Read at the start, then only when an event names the post: a result's
 * facts laid over a scheduled post answer at once; otherwise (a withdrawal is stored when
 * announced) it is read again, after the settle pauses when posts may still be writing it.
 */
export async function waitForFinal(waiters: PostWaiters, w: WaitForFinal): Promise<WaitOutcome | undefined> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const left = () => w.waitMs - elapsed();
  const aborted = abortion(w.signal);
  const read = async () => {
    const post = await w.read();
    w.report?.(post, elapsed());
    return post;
  };
  try {
    for (;;) {
      // Enter before reading, so an outcome between the read and the wait is not missed.
      const waiter = waiters.enter(w.postId);
      let woken: Wakening | undefined;
      let post: Post;
      try {
        post = await read();
        if (w.signal?.aborted) return undefined;
        if (isFinal(post) || !waiter || left() <= 0) return { post, stored: true };
        woken = await wakening(waiter.woken, aborted.promise, left, () => w.report?.(post, elapsed()), w.heartbeatMs);
      } finally {
        waiter?.release();
      }
      if (w.signal?.aborted) return undefined;
      const laid = woken?.facts && laidOver(post, woken.facts);
      if (laid) return { post: laid, stored: false };
      if (!woken || woken.written) {
        post = await read();
        if (isFinal(post) || left() <= 0) return { post, stored: true };
        continue;
      }
      for (const ms of SETTLE_PAUSES_MS) {
        await Promise.race([pause(Math.min(ms, Math.max(0, left()))), aborted.promise]);
        if (w.signal?.aborted) return undefined;
        post = await read();
        if (isFinal(post) || left() <= 0) return { post, stored: true };
      }
    }
  } finally {
    aborted.dispose();
  }
}

/** The wakening, or undefined when the time is over or the caller left; a heartbeat every `heartbeatMs` meanwhile. */
async function wakening(
  woken: Promise<Wakening>,
  aborted: Promise<void>,
  left: () => number,
  heartbeat: () => void,
  heartbeatMs = Infinity,
): Promise<Wakening | undefined> {
  for (;;) {
    const timer = timeout(Math.max(0, Math.min(left(), heartbeatMs)));
    const how = await Promise.race([woken, aborted.then(() => 'gone' as const), timer.promise]);
    timer.clear();
    if (how === 'gone') return undefined;
    if (how !== 'elapsed') return how;
    if (left() <= 0) return undefined;
    heartbeat();
  }
}

function timeout(ms: number): { promise: Promise<'elapsed'>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'elapsed'>((resolve) => (timer = setTimeout(() => resolve('elapsed'), ms)));
  return { promise, clear: () => clearTimeout(timer) };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A promise that settles when the signal aborts (never without one), and its listener's removal. */
function abortion(signal: AbortSignal | undefined): { promise: Promise<void>; dispose(): void } {
  if (!signal) return { promise: new Promise(() => undefined), dispose: () => undefined };
  let onAbort!: () => void;
  const promise = new Promise<void>((resolve) => (onAbort = resolve));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
