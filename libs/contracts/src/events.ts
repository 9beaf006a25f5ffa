import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PostWarningSchema } from './post';

export interface EventDef<T extends TSchema = TSchema> {
  name: string;
  schema: T;
}
function defineEvent<T extends TSchema>(name: string, schema: T): EventDef<T> {
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
  platformMeta: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  scheduledTime: Type.String(),
  dispatchedAt: Type.String(),
});
export type PostDue = Static<typeof PostDueSchema>;

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
});
export type CommentReceived = Static<typeof CommentReceivedSchema>;

export const KeyRevokedSchema = Type.Object({ keyId: Type.String(), accountId: Type.String() });
/** An OAuth grant (a consent and every token issued under it) revoked; with tokenId, only that access token. */
export const GrantRevokedSchema = Type.Object({ grantId: Type.String(), accountId: Type.String(), tokenId: Type.Optional(Type.String()) });
/** An account (or one of its users) disabled or enabled, or its plan or trial changed: cached verdicts of its credentials are stale. */
export const AccountChangedSchema = Type.Object({ accountId: Type.String(), userId: Type.Optional(Type.String()) });

export const Events = {
  postDue: defineEvent('post.due', PostDueSchema),
  postPublished: defineEvent('post.published', PostPublishedSchema),
  postFailed: defineEvent('post.failed', PostFailedSchema),
  authKeyRevoked: defineEvent('auth.key.revoked', KeyRevokedSchema),
  authGrantRevoked: defineEvent('auth.grant.revoked', GrantRevokedSchema),
  authAccountChanged: defineEvent('auth.account.changed', AccountChangedSchema),
  connectionCreated: defineEvent('connection.created', Type.Object({ profileId: Type.String(), accountId: Type.String(), platform: Type.String() })),
  connectionRevoked: defineEvent('connection.revoked', Type.Object({ profileId: Type.String(), accountId: Type.String() })),
  mediaDeleted: defineEvent('media.deleted', Type.Object({ mediaId: Type.String(), accountId: Type.String() })),
  commentReceived: defineEvent('comment.received', CommentReceivedSchema),
} as const;

/** The envelope every event travels in. */
export interface EventEnvelope<T = unknown> {
  id: string;
  name: string;
  occurredAt: string;
  data: T;
}
