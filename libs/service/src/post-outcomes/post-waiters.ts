import { Events, type PostWarning } from '@postbus/contracts';
import type { EventConsumer } from '@postbus/bus';

/** What a result event says the post became; laid over a scheduled post, it is what posts will write. */
export type OutcomeFacts =
  | { status: 'posted'; publishedAt: string; permalink: string | null; warnings: PostWarning[] }
  | { status: 'failed'; reason: string; failedAt: string };

/**
 * How a waiter was woken: `written` when the post's state is already written (read it at once);
 * `facts` when a result event said what the post became (posts may not have written it yet).
 */
export interface Wakening {
  written: boolean;
  facts?: OutcomeFacts;
}

/**
 * Callers waiting for a post's outcome (the REST long poll, the agent tool's wait), keyed by post
 * id. A result event for the post wakes its waiters; nothing here reads the database. The number
 * of waiters of this process is bounded: past the bound a caller is answered at once.
 */
export class PostWaiters {
  private readonly byPost = new Map<string, Set<(w: Wakening) => void>>();
  private waiting = 0;

  constructor(private readonly max: number) {}

  /** Waiters of this process now. */
  get count(): number {
    return this.waiting;
  }

  /**
   * A waiter for one post: `woken` settles when a result event names the post; `release` must be
   * called once the caller is answered or gone. Undefined when the bound is reached.
   */
  enter(postId: string): { woken: Promise<Wakening>; release(): void } | undefined {
    if (this.waiting >= this.max) return undefined;
    let wake!: (w: Wakening) => void;
    const woken = new Promise<Wakening>((resolve) => (wake = resolve));
    let set = this.byPost.get(postId);
    if (!set) this.byPost.set(postId, (set = new Set()));
    set.add(wake);
    this.waiting++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.waiting--;
      set.delete(wake);
      if (set.size === 0 && this.byPost.get(postId) === set) this.byPost.delete(postId);
      wake({ written: false });
    };
    return { woken, release };
  }

  /**
   * A result event for the post: its waiters look again. `written`: the event is announced once
   * the change is stored (post.withdrawn), so no pause is needed; `facts`: what the post became.
   */
  wake(postId: string, how: Partial<Wakening> = {}): void {
    const set = this.byPost.get(postId);
    if (!set) return;
    this.byPost.delete(postId);
    for (const wake of set) wake({ written: how.written ?? false, facts: how.facts });
  }

  /**
   * Has `consumer` (a queue of this process) wake the waiters on the events of a final state:
   * post.published and post.failed with their facts, post.withdrawn (stored when announced).
   */
  hearOutcomes(consumer: EventConsumer): EventConsumer {
    return consumer
      .on(Events.postPublished, ({ data }) =>
        this.wake(data.postId, {
          facts: {
            status: 'posted',
            publishedAt: data.publishedAt,
            permalink: data.permalink,
            warnings: data.warnings ?? [],
          },
        }),
      )
      .on(Events.postFailed, ({ data }) =>
        this.wake(data.postId, { facts: { status: 'failed', reason: data.reason, failedAt: data.failedAt } }),
      )
      .on(Events.postWithdrawn, ({ data }) => this.wake(data.postId, { written: true }));
  }
}
