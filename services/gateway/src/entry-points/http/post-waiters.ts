/**
 * Callers waiting for a post's outcome (GET /api/v1/posts/{id}?waitFor=final), keyed by post id.
 * A result event for the post wakes its waiters; nothing here reads the database. The number of
 * waiters of this process is bounded: past the bound a caller is answered at once.
 */
/** How a waiter was woken: `written` when the post's state is already written (read it at once). */
export interface Wakening {
  written: boolean;
}

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
   * A result event (or a change made through this process) for the post: its waiters look again.
   * `written`: the event is announced once the change is stored (post.withdrawn), so no pause is needed.
   */
  wake(postId: string, opts: { written?: boolean } = {}): void {
    const set = this.byPost.get(postId);
    if (!set) return;
    this.byPost.delete(postId);
    for (const wake of set) wake({ written: opts.written ?? false });
  }
}
