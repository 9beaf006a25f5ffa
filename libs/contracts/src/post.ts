import { Type, type Static } from '@sinclair/typebox';
import { PLATFORMS, type Platform } from './platforms';

export const POST_STATUSES = ['draft', 'pending_approval', 'rejected', 'scheduled', 'posted', 'failed', 'cancelled'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const TERMINAL_POST_STATUSES: readonly PostStatus[] = ['posted', 'failed', 'cancelled', 'rejected'];

export const CAPTION_MAX = 2200;
export const TIKTOK_TITLE_MAX = 150;
export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

/**
 * Media items one post may carry on each platform, a mediaId counting as one: an Instagram
 * carousel holds 10, a Threads carousel 20, a Facebook multi-photo post 10, a TikTok photo post
 * 35 (a TikTok video is one), a YouTube post one video.
 */
export const PLATFORM_MEDIA_MAX: Readonly<Record<Platform, number>> = { instagram: 10, threads: 20, facebook: 10, tiktok: 35, youtube: 1 };
/** The most media items any platform takes: the bound of mediaUrls before any platform is known. */
export const MEDIA_URLS_MAX = Math.max(...Object.values(PLATFORM_MEDIA_MAX));
export const MEDIA_URL_MAX_LENGTH = 2048;

const Timestamp = Type.String({ format: 'date-time' });
const Url = Type.String({ format: 'uri', maxLength: MEDIA_URL_MAX_LENGTH, description: 'An http(s) link without credentials in it.' });
const MediaUrls = Type.Array(Url, { maxItems: MEDIA_URLS_MAX, description: `Public http(s) links of the media, at most ${MEDIA_URLS_MAX} (each platform has its own cap).` });

export const PlatformMetaSchema = Type.Object(
  {
    instagram: Type.Optional(
      Type.Object({
        coverUrl: Type.Optional(Type.String({ format: 'uri', maxLength: MEDIA_URL_MAX_LENGTH, description: 'Reel cover image: an http(s) link without credentials in it.' })),
        thumbOffsetMs: Type.Optional(Type.Integer({ minimum: 0, description: 'Reel cover frame, in ms from the start, when no coverUrl is given.' })),
        shareToFeed: Type.Optional(Type.Boolean({ description: 'Whether a reel also appears in the feed.' })),
        story: Type.Optional(Type.Boolean({ description: 'Publish the single image or video as a story.' })),
      }),
    ),
    facebook: Type.Optional(
      Type.Object({
        coverUrl: Type.Optional(Url),
        reel: Type.Optional(Type.Boolean({ description: 'Publish the video as a reel (start → upload → finish) instead of a Page video.' })),
      }),
    ),
    youtube: Type.Optional(
      Type.Object({
        thumbnailUrl: Type.Optional(Url),
        privacyStatus: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')], { description: 'Default: YOUTUBE_DEFAULT_PRIVACY.' })),
        publishAt: Type.Optional(Type.String({ format: 'date-time', description: 'Scheduled publication on YouTube; needs privacyStatus private.' })),
        madeForKids: Type.Optional(Type.Boolean()),
      }),
    ),
    tiktok: Type.Optional(
      Type.Object({
        privacyLevel: Type.Optional(Type.Union(TIKTOK_PRIVACY_LEVELS.map((l) => Type.Literal(l)))),
        disableComment: Type.Optional(Type.Boolean()),
        disableDuet: Type.Optional(Type.Boolean()),
        disableStitch: Type.Optional(Type.Boolean()),
        commercialContentDisclosure: Type.Optional(Type.Boolean()),
        brandOrganicOptIn: Type.Optional(Type.Boolean()),
        brandContentOptIn: Type.Optional(Type.Boolean()),
        videoCoverTimestampMs: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
    ),
  },
  { description: 'Per-platform settings.' },
);

/** Post payload (spec 2.4): the body of POST /posts, /posts/schedule and /publish. */
export const PostPayloadSchema = Type.Object(
  {
    platforms: Type.Array(Type.Union(PLATFORMS.map((p) => Type.Literal(p))), { minItems: 1, description: 'One or more platforms.' }),
    caption: Type.Optional(Type.String({ maxLength: CAPTION_MAX })),
    title: Type.Optional(Type.String({ description: 'Required for TikTok (max 150) and YouTube.' })),
    scheduledTime: Type.Optional(Type.String({ description: 'ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone.' })),
    schedule: Type.Optional(Type.String({ maxLength: 64, description: 'A schedule id: each profile\'s post takes that profile\'s next free slot (instead of scheduledTime).' })),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone (e.g. Europe/Berlin) of a scheduledTime given without offset: a time the clocks skip moves to the first valid minute after, a repeated time is its first occurrence.' })),
    profileIds: Type.Optional(Type.Array(Type.String())),
    mediaUrls: Type.Optional(MediaUrls),
    mediaId: Type.Optional(Type.String()),
    platformMeta: Type.Optional(PlatformMetaSchema),
    externalId: Type.Optional(Type.String({ maxLength: 255 })),
    category: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type PostPayload = Static<typeof PostPayloadSchema>;

export const CreatePostsResultSchema = Type.Object({
  postIds: Type.Array(Type.String()),
  status: Type.String(),
  scheduledTime: Timestamp,
  timezone: Type.Optional(Type.String({ description: 'The timezone the request named, echoed; scheduledTime is the UTC instant chosen.' })),
  slots: Type.Optional(Type.Array(Type.Object({ postId: Type.String(), profileId: Type.String(), scheduledTime: Timestamp }), { description: 'With schedule: the slot each post took (scheduledTime above is the earliest).' })),
});
export type CreatePostsResult = Static<typeof CreatePostsResultSchema>;

/**
 * What the platform did that the author should know though the post went out: `youtube_private_lock`
 * (YouTube kept the video private: the API project has not passed YouTube's audit),
 * `tiktok_post_id_pending` (TikTok had not released the post's id when Postbus stopped waiting).
 */
export const POST_WARNING_CODES = ['youtube_private_lock', 'tiktok_post_id_pending'] as const;
export type PostWarningCode = (typeof POST_WARNING_CODES)[number];
/** Warnings meaning fewer people can see the post than were asked for: they raise the webhook event post.restricted. */
export const RESTRICTING_WARNING_CODES: readonly PostWarningCode[] = ['youtube_private_lock'];

export const PostWarningSchema = Type.Object({
  code: Type.String({ description: `One of ${POST_WARNING_CODES.join(', ')} (more may come).` }),
  message: Type.String({ description: 'What happened and what to do, in a sentence a person can act on.' }),
});
export type PostWarning = Static<typeof PostWarningSchema>;

/** A post as GET /posts/{id} returns it (spec 2.3). */
export const PostSchema = Type.Object({
  id: Type.String(),
  status: Type.Union(POST_STATUSES.map((s) => Type.Literal(s))),
  caption: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  platforms: Type.Array(Type.String()),
  profileIds: Type.Array(Type.String()),
  mediaUrls: Type.Array(Type.String()),
  scheduledTime: Type.Union([Timestamp, Type.Null()], { description: 'Null only for a draft that has no time yet.' }),
  publishedAt: Type.Union([Timestamp, Type.Null()]),
  failedReason: Type.Union([Type.String(), Type.Null()]),
  externalId: Type.Union([Type.String(), Type.Null()]),
  permalink: Type.Union([Type.String(), Type.Null()]),
  warnings: Type.Array(PostWarningSchema, { description: 'Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise.' }),
  platformMeta: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Post = Static<typeof PostSchema>;

/** PATCH or DELETE of a post answers the post; with ?reshuffle=true also the queued posts that moved up. */
export const PostChangeResultSchema = Type.Object({
  ...PostSchema.properties,
  reshuffled: Type.Optional(Type.Array(
    Type.Object({ postId: Type.String(), from: Timestamp, to: Timestamp }),
    { description: 'With ?reshuffle=true: the later queued posts moved up into the freed slot, in slot order (empty when none moved).' },
  )),
});

/** POST /posts/drafts answers this: drafts may have no scheduledTime yet. */
export const CreateDraftsResultSchema = Type.Object({
  postIds: Type.Array(Type.String()),
  status: Type.Literal('draft'),
  scheduledTime: Type.Union([Timestamp, Type.Null()]),
  timezone: Type.Optional(Type.String({ description: 'The timezone the request named, echoed; scheduledTime is the UTC instant chosen.' })),
});
export type CreateDraftsResult = Static<typeof CreateDraftsResultSchema>;

/** PATCH /posts/{id}: what may change while a post is a draft or scheduled and not yet dispatched. */
export const PostUpdateSchema = Type.Object(
  {
    caption: Type.Optional(Type.String({ maxLength: CAPTION_MAX })),
    title: Type.Optional(Type.String()),
    scheduledTime: Type.Optional(Type.String({ description: 'ISO 8601 with Z or an offset (or a local time without offset together with timezone), in the future. Setting it on a draft schedules the draft.' })),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone (e.g. Europe/Berlin) of a scheduledTime given without offset: a time the clocks skip moves to the first valid minute after, a repeated time is its first occurrence.' })),
    mediaUrls: Type.Optional(MediaUrls),
    mediaId: Type.Optional(Type.String()),
    platformMeta: Type.Optional(PlatformMetaSchema),
    category: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type PostUpdate = Static<typeof PostUpdateSchema>;

export const POSTS_PAGE_MAX = 100;
export const POSTS_PAGE_DEFAULT = 20;

/** Filters of GET /posts; every one narrows the list. */
export const PostListFilterSchema = Type.Object(
  {
    status: Type.Optional(Type.Array(Type.Union(POST_STATUSES.map((s) => Type.Literal(s))), { minItems: 1 })),
    platform: Type.Optional(Type.Array(Type.Union(PLATFORMS.map((p) => Type.Literal(p))), { minItems: 1 })),
    profileId: Type.Optional(Type.String()),
    externalId: Type.Optional(Type.String()),
    category: Type.Optional(Type.String()),
    from: Type.Optional(Type.String({ description: 'Only posts with scheduledTime at or after this ISO 8601 time.' })),
    to: Type.Optional(Type.String({ description: 'Only posts with scheduledTime before this ISO 8601 time.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: POSTS_PAGE_MAX, description: `At most ${POSTS_PAGE_MAX}; ${POSTS_PAGE_DEFAULT} by default.` })),
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);
export type PostListFilter = Static<typeof PostListFilterSchema>;

export const PostPageSchema = Type.Object({
  data: Type.Array(PostSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
});
export type PostPage = Static<typeof PostPageSchema>;

export const APPROVAL_DECISIONS = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** An approval request of a draft: the link a human opens to approve or reject it. */
export const ApprovalSchema = Type.Object({
  postId: Type.String(),
  status: Type.Union(POST_STATUSES.map((s) => Type.Literal(s)), { description: 'The post\'s status.' }),
  decision: Type.Union(APPROVAL_DECISIONS.map((d) => Type.Literal(d))),
  approvalUrl: Type.Union([Url, Type.Null()], { description: 'Page under {base_url} to approve or reject; null once decided or expired.' }),
  expiresAt: Timestamp,
  requestedAt: Timestamp,
  decidedAt: Type.Union([Timestamp, Type.Null()]),
});
export type Approval = Static<typeof ApprovalSchema>;

export const PolicyProblemSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  platform: Type.Optional(Type.String()),
  field: Type.Optional(Type.String()),
});

/** POST /posts/validate: every problem at once, nothing stored. */
export const PolicyCheckSchema = Type.Object({
  valid: Type.Boolean(),
  problems: Type.Array(PolicyProblemSchema),
});
export type PolicyCheck = Static<typeof PolicyCheckSchema>;
