import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FollowUpOutcomeSchema, PostWarningSchema } from './post';

export interface EventDef<T extends TSchema = TSchema, N extends string = string> {
  name: N;
  schema: T;
}
function defineEvent<N extends string, T extends TSchema>(name: N, schema: T): EventDef<T, N> {
  return { name, schema };
}

/** The content a publisher needs, carried whole so a publish never reads another service's tables. */
export const PostDueSchema = Type.Object({
  postId: Type.String(),
  accountId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  caption: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  mediaUrls: Type.Array(Type.String()),
  /** The stored media whose signed URL is mediaUrls[0]; the publisher asks media for a fresh URL, as a stored one may have expired. */
  mediaId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** A cover frame made for the video (normalize, no cover given): the publisher asks media for its fresh URL and passes it as the platform's cover image. */
  coverMediaId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  platformMeta: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  scheduledTime: Type.String(),
  dispatchedAt: Type.String(),
  /** The first comment to publish right after the post on this platform (absent or null: none). */
  firstComment: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Threads: the replies to chain under the post, in order (absent or empty: none). */
  thread: Type.Optional(Type.Array(Type.String())),
});
export type PostDue = Static<typeof PostDueSchema>;

/** A post's first comment settled (posted, or failed for good); the post itself stays posted either way. */
export const PostFirstCommentSchema = Type.Object({
  postId: Type.String(),
  accountId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  firstComment: FollowUpOutcomeSchema,
  settledAt: Type.String(),
});
export type PostFirstComment = Static<typeof PostFirstCommentSchema>;

/** A post's Threads chain settled: every part posted or failed (a part after a failed one is not posted). */
export const PostThreadSchema = Type.Object({
  postId: Type.String(),
  accountId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  thread: Type.Array(FollowUpOutcomeSchema),
  settledAt: Type.String(),
});
export type PostThread = Static<typeof PostThreadSchema>;

export const PostPublishedSchema = Type.Object({
  postId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  platformPostId: Type.String(),
  permalink: Type.Union([Type.String(), Type.Null()]),
  publishedAt: Type.String(),
  /** The post's account (absent from events announced before it was added). */
  accountId: Type.Optional(Type.String()),
  /** What the platform did differently from what was asked (absent when nothing). */
  warnings: Type.Optional(Type.Array(PostWarningSchema)),
});
export type PostPublished = Static<typeof PostPublishedSchema>;

export const PostFailedSchema = Type.Object({
  postId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  reason: Type.String(),
  failedAt: Type.String(),
  /** The post's account (absent from events announced before it was added). */
  accountId: Type.Optional(Type.String()),
});
export type PostFailed = Static<typeof PostFailedSchema>;

/**
 * A post that ended before it was dispatched and will never be published: cancelled by its
 * account, or rejected by its approver. Final, like post.published and post.failed.
 */
export const PostWithdrawnSchema = Type.Object({
  postId: Type.String(),
  accountId: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  status: Type.Union([Type.Literal('cancelled'), Type.Literal('rejected')]),
  withdrawnAt: Type.String(),
});
export type PostWithdrawn = Static<typeof PostWithdrawnSchema>;

/** A comment a platform announced on a connected account (automation's inbox, carried whole to its worker). */
export const CommentReceivedSchema = Type.Object({
  platform: Type.String(),
  /** The platform's id of the account commented on (Instagram account, Facebook Page). */
  platformAccountId: Type.String(),
  commentId: Type.String(),
  postId: Type.Union([Type.String(), Type.Null()]),
  /** The comment this one answers, when it is a reply. */
  parentId: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  authorId: Type.Union([Type.String(), Type.Null()]),
  authorName: Type.Union([Type.String(), Type.Null()]),
  receivedAt: Type.String(),
  /**
   * Bluesky: what a reply to the comment names (https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds):
   * the comment's cid (its `parent`, with commentId as the uri) and its thread's root.
   */
  thread: Type.Optional(Type.Object({ cid: Type.String(), rootUri: Type.String(), rootCid: Type.String() })),
});
export type CommentReceived = Static<typeof CommentReceivedSchema>;

/**
 * What a profile is now, for services that keep the facts they check on every request (posts:
 * owner, platform, status) instead of asking connections each time. `revision` grows with every
 * change of the profile's status, so an event heard late never overwrites a newer fact.
 */
export const ConnectionChangedSchema = Type.Object({
  profileId: Type.String(),
  accountId: Type.String(),
  platform: Type.String(),
  status: Type.String(),
  revision: Type.Integer({ minimum: 1 }),
  connectedAt: Type.String(),
});
export type ConnectionChanged = Static<typeof ConnectionChangedSchema>;

export const KeyRevokedSchema = Type.Object({ keyId: Type.String(), accountId: Type.String() });
/** An OAuth grant (a consent and every token issued under it) revoked; with tokenId, only that access token. */
export const GrantRevokedSchema = Type.Object({
  grantId: Type.String(),
  accountId: Type.String(),
  tokenId: Type.Optional(Type.String()),
});
/** An account (or one of its users) disabled or enabled, or its plan or trial changed: cached verdicts of its credentials are stale. */
export const AccountChangedSchema = Type.Object({ accountId: Type.String(), userId: Type.Optional(Type.String()) });

export const Events = {
  postDue: defineEvent('post.due', PostDueSchema),
  postPublished: defineEvent('post.published', PostPublishedSchema),
  postFailed: defineEvent('post.failed', PostFailedSchema),
  postWithdrawn: defineEvent('post.withdrawn', PostWithdrawnSchema),
  postFirstComment: defineEvent('post.first_comment', PostFirstCommentSchema),
  postThread: defineEvent('post.thread', PostThreadSchema),
  authKeyRevoked: defineEvent('auth.key.revoked', KeyRevokedSchema),
  authGrantRevoked: defineEvent('auth.grant.revoked', GrantRevokedSchema),
  authAccountChanged: defineEvent('auth.account.changed', AccountChangedSchema),
  connectionCreated: defineEvent(
    'connection.created',
    Type.Object({ profileId: Type.String(), accountId: Type.String(), platform: Type.String() }),
  ),
  connectionRevoked: defineEvent(
    'connection.revoked',
    Type.Object({ profileId: Type.String(), accountId: Type.String() }),
  ),
  /** A profile connected, reconnected, needing a reconnect or disconnected: its facts as of `revision`. */
  connectionChanged: defineEvent('connection.changed', ConnectionChangedSchema),
  mediaDeleted: defineEvent('media.deleted', Type.Object({ mediaId: Type.String(), accountId: Type.String() })),
  /** A rendition to make (media's outbox; the transcoder's queue). */
  mediaRenditionRequested: defineEvent(
    'media.rendition.requested',
    Type.Object({ renditionId: Type.String(), accountId: Type.String(), preset: Type.String() }),
  ),
  commentReceived: defineEvent('comment.received', CommentReceivedSchema),
} as const;

/** The envelope every event travels in. */
export interface EventEnvelope<T = unknown, N extends string = string> {
  id: string;
  name: N;
  occurredAt: string;
  data: T;
}

/** A contract event, by its name. */
export type ContractEvent = (typeof Events)[keyof typeof Events];
export type EventName = ContractEvent['name'];
/** The envelope of one event as its contract types it. */
export type EventOf<D extends EventDef> = EventEnvelope<Static<D['schema']>, D['name']>;
