import { isDeepStrictEqual } from 'node:util';
import {
  profileLimitOf,
  TERMINAL_POST_STATUSES,
  type FollowUpOutcome,
  type Post,
  type Principal,
} from '@postbus/contracts';

/**
 * A post whose answer no longer changes: in a final state (posts applies a result only to a
 * scheduled post, and edits, cancels and approvals only to one not dispatched) with no first
 * comment or chain part still pending (their outcomes are written after the post's own).
 */
export function isSettled(post: Post): boolean {
  return (
    TERMINAL_POST_STATUSES.includes(post.status) &&
    post.firstComment?.status !== 'pending' &&
    !post.thread.some((part) => part.status === 'pending')
  );
}

/** A settled post's answer as GET /api/v1/posts/{id} sends it: the JSON and its ETag. */
export interface FinalAnswer {
  json: string;
  etag: string;
}

interface Entry extends FinalAnswer {
  profileId: string;
  bytes: number;
}

/** Posts whose change was announced but not yet seen in an answer, held at most (oldest dropped first). */
const MAX_AWAITED = 10_000;

/** What an entry holds besides its JSON (key, tag, the entry and map slots), counted against the bound. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Answers of settled posts kept by this gateway process, keyed by account and post id, least
 * recently read dropped first past `maxBytes` (0 keeps nothing). Filled from answers posts gave;
 * an answer is served only to a caller of the post's account whose key sees the post's profile,
 * exactly those posts would answer. Dropped when an event says the post changed after all.
 */
export class FinalPosts {
  private readonly entries = new Map<string, Entry>();
  /** Announced changes posts may not have written yet: an answer is kept again only once it shows them. */
  private readonly awaited = new Map<string, (post: Post) => boolean>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The kept answer for this caller, or undefined (not kept, or not the caller's to see). */
  answerFor(principal: Principal, postId: string): FinalAnswer | undefined {
    const key = keyOf(principal.accountId, postId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const limit = profileLimitOf(principal);
    if (limit && !limit.includes(entry.profileId)) return undefined;
    // Map order is recency: the entry read now moves to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps the answer posts gave, when the post is settled and the answer fits the bound. */
  keep(principal: Principal, post: Post, answer: FinalAnswer): void {
    if (!isSettled(post)) return;
    const bytes = answer.json.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return;
    const key = keyOf(principal.accountId, post.id);
    const shows = this.awaited.get(key);
    if (shows && !shows(post)) return;
    this.awaited.delete(key);
    this.forgetKey(key);
    this.entries.set(key, { ...answer, profileId: post.profileIds[0], bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.forgetKey(oldest);
    }
  }

  /**
   * The post changed (a first comment or chain settled again): its answer is read anew, and kept
   * again only once an answer `shows` the change. The event reaches this gateway and posts on
   * separate queues, so a read between the two would otherwise keep the answer from before.
   */
  forget(accountId: string, postId: string, shows: (post: Post) => boolean): void {
    const key = keyOf(accountId, postId);
    this.forgetKey(key);
    this.awaited.delete(key);
    this.awaited.set(key, shows);
    for (const [oldest] of this.awaited) {
      if (this.awaited.size <= MAX_AWAITED) break;
      this.awaited.delete(oldest);
    }
  }

  /** A first comment settled as announced: the post's answer is kept again once it shows `outcome`. */
  forgetFirstComment(accountId: string, postId: string, outcome: FollowUpOutcome): void {
    this.forget(accountId, postId, (post) => isDeepStrictEqual(post.firstComment, outcome));
  }

  /** A chain settled as announced: the post's answer is kept again once it shows `outcome`. */
  forgetThread(accountId: string, postId: string, outcome: FollowUpOutcome[]): void {
    this.forget(accountId, postId, (post) => isDeepStrictEqual(post.thread, outcome));
  }

  private forgetKey(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

const keyOf = (accountId: string, postId: string) => `${accountId}/${postId}`;
