/**
 * Callers waiting for a post's outcome (GET /api/v1/posts/{id}?waitFor=final), keyed by post id.
 * A result event for the post wakes its waiters; nothing here reads the database. The number of
 * waiters of this process is bounded: past the bound a caller is answered at once.
 */
export class PostWaiters {
  private readonly byPost = new Map<string, Set<() => void>>();
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
  enter(postId: string): { woken: Promise<void>; release(): void } | undefined {
    if (this.waiting >= this.max) return undefined;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    let set = this.byPost.get(postId);
    if (!set) this.byPost.set(postId, (set = new Set()));
    set.add(wake);
    this.waiting++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.waiting--;
      set!.delete(wake);
      if (set!.size === 0 && this.byPost.get(postId) === set) this.byPost.delete(postId);
      wake();
    };
    return { woken, release };
  }

  /** A result event (or a change made through this process) for the post: its waiters look again. */
  wake(postId: string): void {
    const set = this.byPost.get(postId);
    if (!set) return;
    this.byPost.delete(postId);
    for (const wake of set) wake();
  }
}
