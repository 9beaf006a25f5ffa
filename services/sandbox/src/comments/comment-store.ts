/** Platforms whose comments the sandbox can announce through Meta-style webhooks (Threads: `replies`). */
export const COMMENT_PLATFORMS = ['instagram', 'facebook', 'threads'] as const;
export type CommentPlatform = (typeof COMMENT_PLATFORMS)[number];

/** The App Secret deliveries are signed with unless a subscription names its own (the sandbox apps' secret). */
export const SANDBOX_APP_SECRET = 'sandbox-secret';

export interface SandboxComment {
  platform: CommentPlatform;
  id: string;
  /** The account (Instagram professional account, Facebook Page, Threads user) whose post was commented on. */
  accountId: string;
  accountHandle: string;
  postId: string;
  /** The comment this one answers, when it is a reply. */
  parentId: string | null;
  text: string;
  /** Instagram: id and username; Facebook: id and name; Threads: username (its webhooks carry no id). */
  from: { id: string; name: string };
  createdAt: number;
  /** The exact webhook body announcing it, resent as is by a redelivery. */
  payload: string;
}

export interface SandboxReply {
  platform: CommentPlatform;
  /** `reply`: a public comment under the comment; `private_reply`: a direct message to its author. */
  kind: 'reply' | 'private_reply';
  id: string;
  /** The comment answered. */
  commentId: string;
  accountId: string;
  text: string;
  createdAt: string;
}

/** A comment (or a Threads reply) the account itself published on one of its own posts through the API. */
export interface SandboxPostComment {
  platform: 'instagram' | 'facebook' | 'threads' | 'youtube';
  id: string;
  /** The post, media or video commented on; for a Threads reply, the post or reply it answers. */
  postId: string;
  accountId: string;
  text: string;
  permalink: string | null;
  createdAt: string;
}

export interface CommentSubscription {
  id: number;
  callbackUrl: string;
  appSecret: string;
  createdAt: string;
}

/** Comments on the emulated Meta accounts, the replies the APIs accepted, and the webhook subscriptions. */
export class CommentStore {
  readonly comments = new Map<string, SandboxComment>();
  readonly replies: SandboxReply[] = [];
  readonly subscriptions: CommentSubscription[] = [];
  /** Comments accounts published on their own posts (first comments, Threads reply chains), oldest first. */
  readonly postComments: SandboxPostComment[] = [];
  /** Threads reply containers (`reply_to_id` on a sandbox comment) by container id, until published. */
  readonly threadsReplyContainers = new Map<string, { commentId: string; accountId: string; text: string }>();
  private nextSubscription = 1;

  subscribe(callbackUrl: string, appSecret: string, now: Date): CommentSubscription {
    const subscription = { id: this.nextSubscription++, callbackUrl, appSecret, createdAt: now.toISOString() };
    this.subscriptions.push(subscription);
    return subscription;
  }

  listReplies(filter: { platform?: string; commentId?: string; accountId?: string }): SandboxReply[] {
    return this.replies.filter(
      (r) =>
        (!filter.platform || r.platform === filter.platform) &&
        (!filter.commentId || r.commentId === filter.commentId) &&
        (!filter.accountId || r.accountId === filter.accountId),
    );
  }

  clear(): void {
    this.comments.clear();
    this.replies.length = 0;
    this.subscriptions.length = 0;
    this.postComments.length = 0;
    this.threadsReplyContainers.clear();
  }
}
