import { Rpc, TERMINAL_POST_STATUSES, type Post, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';

/**
 * Callers of svc_get_post_status with waitSeconds, keyed by post id, woken by the events of a
 * final state (heard on this process's queue, as the gateway's long poll is). Nothing here reads
 * the database; the bound keeps a flood of waits from holding unbounded memory.
 */
export class PostOutcomes {
  private readonly byPost = new Map<string, Set<() => void>>();
  private waiting = 0;

  constructor(private readonly max = 1000) {}

  /** Settles `woken` when the post's outcome is announced, `elapsed` when `ms` pass (or the caller left); `full` at once when the bound is reached. */
  next(postId: string, ms: number, signal?: AbortSignal): Promise<'woken' | 'elapsed' | 'full'> {
    if (this.waiting >= this.max) return Promise.resolve('full');
    return new Promise((resolve) => {
      let set = this.byPost.get(postId);
      if (!set) this.byPost.set(postId, (set = new Set()));
      const done = (how: 'woken' | 'elapsed') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        set.delete(wake);
        if (set.size === 0 && this.byPost.get(postId) === set) this.byPost.delete(postId);
        this.waiting--;
        resolve(how);
      };
      const wake = () => done('woken');
      const aborted = () => done('elapsed');
      const timer = setTimeout(() => done('elapsed'), ms);
      signal?.addEventListener('abort', aborted);
      set.add(wake);
      this.waiting++;
    });
  }

  wake(postId: string): void {
    for (const wake of [...(this.byPost.get(postId) ?? [])]) wake();
  }
}

const isFinal = (post: Post) => TERMINAL_POST_STATUSES.includes(post.status);

/**
 * After a result event, posts may not have written it yet (it hears the same event): the post is
 * read again after these pauses, a handful of reads per outcome, never a steady poll.
 */
const SETTLE_PAUSES_MS = [25, 50, 100, 200, 400, 800, 1600];

export interface WaitReport {
  (post: Post, elapsedMs: number): void;
}

/**
 * The post once final, or as it is when `waitMs` is over: read at the start, then again only when
 * an outcome event names it (and after the settle pauses), and once at the end; as it is at
 * once when the process already holds as many waits as it may. `report` hears
 * each read, and a heartbeat every `heartbeatMs` while nothing changes, for progress notifications.
 */
export async function waitForFinal(
  deps: { rpc: RpcClient; outcomes: PostOutcomes },
  principal: Principal,
  postId: string,
  waitMs: number,
  opts: { report?: WaitReport; heartbeatMs?: number; signal?: AbortSignal } = {},
): Promise<Post> {
  const started = Date.now();
  const left = () => waitMs - (Date.now() - started);
  const read = () => deps.rpc.call(Rpc.postsGet, { id: postId }, principal);
  let post = await read();
  opts.report?.(post, 0);
  while (!isFinal(post) && left() > 0 && !opts.signal?.aborted) {
    const how = await deps.outcomes.next(postId, Math.min(left(), opts.heartbeatMs ?? Infinity), opts.signal);
    if (how === 'full') return post;
    if (how === 'elapsed') {
      if (left() <= 0) return read();
      opts.report?.(post, Date.now() - started);
      continue;
    }
    for (const ms of SETTLE_PAUSES_MS) {
      post = await read();
      if (isFinal(post) || left() <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(ms, left())).unref());
    }
    opts.report?.(post, Date.now() - started);
  }
  return post;
}
