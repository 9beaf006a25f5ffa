import { Type, type Static } from '@sinclair/typebox';
import { PLATFORMS, type Platform } from './platforms';
import { PINTEREST_CAROUSEL_IMAGES, PINTEREST_META_PROPERTIES } from './pinterest';

export const POST_STATUSES = [
  'draft',
  'pending_approval',
  'rejected',
  'scheduled',
  'posted',
  'failed',
  'cancelled',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const TERMINAL_POST_STATUSES: readonly PostStatus[] = ['posted', 'failed', 'cancelled', 'rejected'];

export const CAPTION_MAX = 2200;
export const TIKTOK_TITLE_MAX = 150;
export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;

/**
 * Media items one post may carry on each platform, a mediaId counting as one: an Instagram
 * carousel holds 10, a Threads carousel 20, a Facebook multi-photo post 10, a TikTok photo post
 * 35 (a TikTok video is one), a YouTube post one video, a Bluesky post 4 images or one video,
 * a Mastodon status 4 attachments (the default of an instance's max_media_attachments), a Pinterest
 * pin one image, one video or 2–5 images.
 */
export const PLATFORM_MEDIA_MAX: Readonly<Record<Platform, number>> = {
  instagram: 10,
  threads: 20,
  facebook: 10,
  tiktok: 35,
  youtube: 1,
  bluesky: 4,
  mastodon: 4,
  linkedin: 20,
  x: 4,
  pinterest: PINTEREST_CAROUSEL_IMAGES.max,
};
/** The most media items any platform takes: the bound of mediaUrls before any platform is known. */
export const MEDIA_URLS_MAX = Math.max(...Object.values(PLATFORM_MEDIA_MAX));
export const MEDIA_URL_MAX_LENGTH = 2048;
/**
 * Bluesky (app.bsky.feed.post, https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json):
 * the text is at most 300 graphemes (what a reader sees as one character; an emoji with modifiers is
 * one) and 3,000 UTF-8 bytes; a post carries up to 4 images or one video
 * (app.bsky.embed.images / app.bsky.embed.video).
 */
export const BLUESKY_TEXT_MAX = 300;
export const BLUESKY_TEXT_MAX_BYTES = 3000;
export const BLUESKY_IMAGES_MAX = 4;
/** Alt text of one image: the Bluesky app's own limit (the lexicon sets none for images; a video's alt is at most 1,000 graphemes). */
export const BLUESKY_ALT_MAX = 2000;
/**
 * Mastodon statuses, as a default instance has them (https://docs.joinmastodon.org/entities/Instance/#statuses):
 * 500 characters counted the Mastodon way (text plus content warning; a URL counts 23, a mention its
 * username only: https://docs.joinmastodon.org/user/posting/#text), 4 attachments, polls of 2–4 options of
 * 50 characters each open 300 s to 2,629,746 s (https://docs.joinmastodon.org/entities/Instance/#polls).
 * Each instance may set its own numbers; the publisher checks those when it posts.
 */
export const MASTODON_TEXT_MAX = 500;
export const MASTODON_MEDIA_MAX = 4;
export const MASTODON_URL_LENGTH = 23;
/** Alt text of one attachment (the description field; Mastodon's MediaAttachment caps it at 1,500 characters). */
export const MASTODON_ALT_MAX = 1500;
export const MASTODON_POLL_OPTIONS = { min: 2, max: 4 } as const;
export const MASTODON_POLL_OPTION_MAX = 50;
export const MASTODON_POLL_EXPIRES_IN = { min: 300, max: 2_629_746 } as const;
export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
/**
 * X posts (https://docs.x.com/fundamentals/counting-characters): at most 280 characters by X's
 * weighting (a URL counts 23, an emoji or a CJK character 2); up to 4 images or one video or GIF
 * (https://docs.x.com/x-api/media/quickstart/best-practices). A reply chain (`thread`) adds up to
 * THREAD_PARTS_MAX replies, each one post of its own.
 */
export const X_TEXT_MAX = 280;
export const X_URL_LENGTH = 23;
export const X_IMAGES_MAX = 4;
/**
 * LinkedIn posts (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api):
 * commentary of at most 3,000 characters; one image, 2–20 images
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api),
 * one video or one document. An image's alt text is at most 4,086 characters (Posts API, media.altText).
 */
export const LINKEDIN_TEXT_MAX = 3000;
export const LINKEDIN_IMAGES_MAX = 20;
export const LINKEDIN_ALT_MAX = 4086;
/** The title a video or document post shows (content.media.title). */
export const LINKEDIN_TITLE_MAX = 400;
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;

const Timestamp = Type.String({ format: 'date-time' });
const Url = Type.String({
  format: 'uri',
  maxLength: MEDIA_URL_MAX_LENGTH,
  description: 'An http(s) link without credentials in it.',
});
const MediaUrls = Type.Array(Url, {
  maxItems: MEDIA_URLS_MAX,
  description: `Public http(s) links of the media, at most ${MEDIA_URLS_MAX} (each platform has its own cap).`,
});

/**
 * `normalize`: instead of refusing media that breaks a platform's rules (media_incompatible), the
 * post carries a rendition made to fit them; `{ "trim": true }` also cuts a video longer than the
 * platform takes. Given for the whole post, or per platform in platformMeta.<platform>.normalize.
 */
export const NormalizeSchema = Type.Union(
  [
    Type.Boolean(),
    Type.Object(
      {
        trim: Type.Optional(
          Type.Boolean({
            description:
              'Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      'true: media breaking the platform\'s rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video.',
  },
);
export type NormalizeOption = Static<typeof NormalizeSchema>;
const Normalize = Type.Optional(NormalizeSchema);

export const PlatformMetaSchema = Type.Object(
  {
    instagram: Type.Optional(
      Type.Object({
        coverUrl: Type.Optional(
          Type.String({
            format: 'uri',
            maxLength: MEDIA_URL_MAX_LENGTH,
            description: 'Reel cover image: an http(s) link without credentials in it.',
          }),
        ),
        thumbOffsetMs: Type.Optional(
          Type.Integer({
            minimum: 0,
            description: 'Reel cover frame, in ms from the start, when no coverUrl is given.',
          }),
        ),
        shareToFeed: Type.Optional(Type.Boolean({ description: 'Whether a reel also appears in the feed.' })),
        story: Type.Optional(Type.Boolean({ description: 'Publish the single image or video as a story.' })),
        normalize: Normalize,
      }),
    ),
    facebook: Type.Optional(
      Type.Object({
        coverUrl: Type.Optional(Url),
        reel: Type.Optional(
          Type.Boolean({
            description: 'Publish the video as a reel (start → upload → finish) instead of a Page video.',
          }),
        ),
        normalize: Normalize,
      }),
    ),
    youtube: Type.Optional(
      Type.Object({
        thumbnailUrl: Type.Optional(Url),
        privacyStatus: Type.Optional(
          Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')], {
            description: 'Default: YOUTUBE_DEFAULT_PRIVACY.',
          }),
        ),
        publishAt: Type.Optional(
          Type.String({
            format: 'date-time',
            description: 'Scheduled publication on YouTube; needs privacyStatus private.',
          }),
        ),
        madeForKids: Type.Optional(Type.Boolean()),
        normalize: Normalize,
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
        normalize: Normalize,
      }),
    ),
    bluesky: Type.Optional(
      Type.Object(
        {
          altTexts: Type.Optional(
            Type.Array(Type.String({ maxLength: BLUESKY_ALT_MAX }), {
              maxItems: BLUESKY_IMAGES_MAX,
              description: `Alt text of each media item, in order (at most ${BLUESKY_ALT_MAX} characters each); none for an item: empty.`,
            }),
          ),
          langs: Type.Optional(
            Type.Array(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$', maxLength: 35 }), {
              maxItems: 3,
              description:
                'Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them.',
            }),
          ),
          linkCard: Type.Optional(
            Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), Type.Literal(false)], {
              description:
                'Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped.',
            }),
          ),
          normalize: Normalize,
        },
        { additionalProperties: false },
      ),
    ),
    mastodon: Type.Optional(
      Type.Object(
        {
          spoilerText: Type.Optional(
            Type.String({
              maxLength: MASTODON_TEXT_MAX,
              description: 'Content warning shown before the text (counts toward the character limit).',
            }),
          ),
          visibility: Type.Optional(
            Type.Union(
              MASTODON_VISIBILITIES.map((v) => Type.Literal(v)),
              { description: 'public (default), unlisted, private (followers only) or direct.' },
            ),
          ),
          language: Type.Optional(
            Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'ISO 639 language code of the text, e.g. "en".' }),
          ),
          sensitive: Type.Optional(Type.Boolean({ description: 'Mark the media as sensitive.' })),
          altTexts: Type.Optional(
            Type.Array(Type.String({ maxLength: MASTODON_ALT_MAX }), {
              maxItems: MASTODON_MEDIA_MAX,
              description: `Alt text of each media item, in order (at most ${MASTODON_ALT_MAX} characters each).`,
            }),
          ),
          poll: Type.Optional(
            Type.Object(
              {
                options: Type.Array(Type.String({ minLength: 1, maxLength: MASTODON_POLL_OPTION_MAX }), {
                  minItems: MASTODON_POLL_OPTIONS.min,
                  maxItems: MASTODON_POLL_OPTIONS.max,
                }),
                expiresIn: Type.Integer({
                  minimum: MASTODON_POLL_EXPIRES_IN.min,
                  maximum: MASTODON_POLL_EXPIRES_IN.max,
                  description: 'Seconds the poll stays open.',
                }),
                multiple: Type.Optional(Type.Boolean()),
              },
              {
                additionalProperties: false,
                description:
                  'A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month.',
              },
            ),
          ),
          normalize: Normalize,
        },
        { additionalProperties: false },
      ),
    ),
    linkedin: Type.Optional(
      Type.Object(
        {
          visibility: Type.Optional(
            Type.Union(
              LINKEDIN_VISIBILITIES.map((v) => Type.Literal(v)),
              { description: 'Default PUBLIC; CONNECTIONS: members only.' },
            ),
          ),
          altTexts: Type.Optional(
            Type.Array(Type.String({ maxLength: LINKEDIN_ALT_MAX }), {
              maxItems: LINKEDIN_IMAGES_MAX,
              description: 'Alt text per image, in media order.',
            }),
          ),
          title: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: LINKEDIN_TITLE_MAX,
              description: 'Video or document title.',
            }),
          ),
          disableReshare: Type.Optional(Type.Boolean({ description: 'No reshares.' })),
          normalize: Normalize,
        },
        { additionalProperties: false },
      ),
    ),
    pinterest: Type.Optional(
      Type.Object({ ...PINTEREST_META_PROPERTIES, normalize: Normalize }, { additionalProperties: false }),
    ),
  },
  { description: 'Per-platform settings.' },
);

export const RECURRENCE_MAX = 200;

/**
 * First comments: the platforms that take one through their API, and the most characters each
 * takes (links beside each call in libs/platforms): Instagram 2,200, Facebook 8,000, Threads 500
 * (counted as Threads counts, an emoji by its UTF-8 bytes), YouTube 10,000, Bluesky 300 graphemes (a
 * reply to the post, https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds). TikTok has no API
 * for comments, so a first comment for TikTok is refused.
 */
export const FIRST_COMMENT_MAX: Readonly<Partial<Record<Platform, number>>> = {
  instagram: 2200,
  facebook: 8000,
  threads: 500,
  youtube: 10_000,
  bluesky: 300,
};
export const FIRST_COMMENT_PLATFORMS = Object.keys(FIRST_COMMENT_MAX) as Platform[];
/** Replies a Threads chain (`thread`) may hold after the post itself; each is one Threads post of at most 500 characters. */
export const THREAD_PARTS_MAX = 20;
export const THREAD_PART_MAX = 500;

const FirstCommentText = Type.String({ minLength: 1, maxLength: 10_000 });
export const FirstCommentInputSchema = Type.Union(
  [
    FirstCommentText,
    Type.Object(
      {
        default: Type.Optional(FirstCommentText),
        instagram: Type.Optional(FirstCommentText),
        facebook: Type.Optional(FirstCommentText),
        threads: Type.Optional(FirstCommentText),
        youtube: Type.Optional(FirstCommentText),
        bluesky: Type.Optional(FirstCommentText),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      'A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported.',
  },
);
export type FirstCommentInput = Static<typeof FirstCommentInputSchema>;

/** The text of a first comment for one platform: its own text, else the default; undefined when it gets none. */
export function firstCommentFor(input: FirstCommentInput | undefined, platform: Platform): string | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'string') return input;
  return (input as Record<string, string | undefined>)[platform] ?? input.default;
}

export const FOLLOW_UP_STATUSES = ['pending', 'posted', 'failed'] as const;
/** The failedReason of a first comment or chain part whose post failed: nothing is published after it. */
export const FOLLOW_UP_FAILED_WITH_POST = 'Not published: the post itself failed.';
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

/** What became of a first comment or of one part of a Threads chain. */
export const FollowUpOutcomeSchema = Type.Object({
  text: Type.String(),
  status: Type.Union(
    FOLLOW_UP_STATUSES.map((s) => Type.Literal(s)),
    { description: 'pending until the post is published and this is sent; posted or failed after.' },
  ),
  permalink: Type.Union([Type.String(), Type.Null()]),
  failedReason: Type.Union([Type.String(), Type.Null()]),
});
export type FollowUpOutcome = Static<typeof FollowUpOutcomeSchema>;

/** Post payload (spec 2.4): the body of POST /posts, /posts/schedule and /publish. */
export const PostPayloadSchema = Type.Object(
  {
    platforms: Type.Array(Type.Union(PLATFORMS.map((p) => Type.Literal(p))), {
      minItems: 1,
      description: 'One or more platforms.',
    }),
    caption: Type.Optional(Type.String({ maxLength: CAPTION_MAX })),
    title: Type.Optional(Type.String({ description: 'Required for TikTok (max 150) and YouTube.' })),
    scheduledTime: Type.Optional(
      Type.String({
        description:
          'ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone.',
      }),
    ),
    schedule: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime).",
      }),
    ),
    timezone: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence.',
      }),
    ),
    profileIds: Type.Optional(Type.Array(Type.String())),
    mediaUrls: Type.Optional(MediaUrls),
    mediaId: Type.Optional(Type.String()),
    normalize: Normalize,
    platformMeta: Type.Optional(PlatformMetaSchema),
    externalId: Type.Optional(Type.String({ maxLength: 255 })),
    category: Type.Optional(Type.String({ maxLength: 100 })),
    firstComment: Type.Optional(FirstCommentInputSchema),
    thread: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: THREAD_PART_MAX }), {
        maxItems: THREAD_PARTS_MAX,
        description: `Threads, X, Bluesky: up to ${THREAD_PARTS_MAX} replies published in order, each under the one before (each at most ${THREAD_PART_MAX} characters on Threads, ${X_TEXT_MAX} weighted on X, ${BLUESKY_TEXT_MAX} graphemes on Bluesky).`,
      }),
    ),
    recurrence: Type.Optional(
      Type.String({
        maxLength: RECURRENCE_MAX,
        description:
          'Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PostPayload = Static<typeof PostPayloadSchema>;

export const CreatePostsResultSchema = Type.Object({
  postIds: Type.Array(Type.String()),
  status: Type.String(),
  scheduledTime: Timestamp,
  timezone: Type.Optional(
    Type.String({ description: 'The timezone the request named, echoed; scheduledTime is the UTC instant chosen.' }),
  ),
  slots: Type.Optional(
    Type.Array(Type.Object({ postId: Type.String(), profileId: Type.String(), scheduledTime: Timestamp }), {
      description: 'With schedule: the slot each post took (scheduledTime above is the earliest).',
    }),
  ),
  seriesId: Type.Optional(
    Type.String({
      description:
        'With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}).',
    }),
  ),
});
export type CreatePostsResult = Static<typeof CreatePostsResultSchema>;

/**
 * What the platform did that the author should know though the post went out: `youtube_private_lock`
 * (YouTube kept the video private: the API project has not passed YouTube's audit),
 * `tiktok_post_id_pending` (TikTok had not released the post's id when Postbus stopped waiting),
 * `bluesky_link_card_skipped` (the linked page could not be read: no card), `bluesky_link_card_thumb_skipped`
 * (the card went out without the page's image).
 */
export const POST_WARNING_CODES = [
  'youtube_private_lock',
  'tiktok_post_id_pending',
  'bluesky_link_card_skipped',
  'bluesky_link_card_thumb_skipped',
] as const;
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
  warnings: Type.Array(PostWarningSchema, {
    description: 'Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise.',
  }),
  firstComment: Type.Union([FollowUpOutcomeSchema, Type.Null()], {
    description: 'The first comment asked for on this platform and what became of it; null when none was asked for.',
  }),
  thread: Type.Array(FollowUpOutcomeSchema, {
    description: 'Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise.',
  }),
  platformMeta: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Post = Static<typeof PostSchema>;

/** PATCH or DELETE of a post answers the post; with ?reshuffle=true also the queued posts that moved up. */
export const PostChangeResultSchema = Type.Object({
  ...PostSchema.properties,
  reshuffled: Type.Optional(
    Type.Array(Type.Object({ postId: Type.String(), from: Timestamp, to: Timestamp }), {
      description:
        'With ?reshuffle=true: the later queued posts moved up into the freed slot, in slot order (empty when none moved).',
    }),
  ),
});

/** POST /posts/drafts answers this: drafts may have no scheduledTime yet. */
export const CreateDraftsResultSchema = Type.Object({
  postIds: Type.Array(Type.String()),
  status: Type.Literal('draft'),
  scheduledTime: Type.Union([Timestamp, Type.Null()]),
  timezone: Type.Optional(
    Type.String({ description: 'The timezone the request named, echoed; scheduledTime is the UTC instant chosen.' }),
  ),
});
export type CreateDraftsResult = Static<typeof CreateDraftsResultSchema>;

/** PATCH /posts/{id}: what may change while a post is a draft or scheduled and not yet dispatched. */
export const PostUpdateSchema = Type.Object(
  {
    caption: Type.Optional(Type.String({ maxLength: CAPTION_MAX })),
    title: Type.Optional(Type.String()),
    scheduledTime: Type.Optional(
      Type.String({
        description:
          'ISO 8601 with Z or an offset (or a local time without offset together with timezone), in the future. Setting it on a draft schedules the draft.',
      }),
    ),
    timezone: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence.',
      }),
    ),
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
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: POSTS_PAGE_MAX,
        description: `At most ${POSTS_PAGE_MAX}; ${POSTS_PAGE_DEFAULT} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);
export type PostListFilter = Static<typeof PostListFilterSchema>;

export const PostPageSchema = Type.Object({
  data: Type.Array(PostSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null on the last page.',
  }),
});
export type PostPage = Static<typeof PostPageSchema>;

export const APPROVAL_DECISIONS = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** An approval request of a draft: the link a human opens to approve or reject it. */
export const ApprovalSchema = Type.Object({
  postId: Type.String(),
  status: Type.Union(
    POST_STATUSES.map((s) => Type.Literal(s)),
    { description: "The post's status." },
  ),
  decision: Type.Union(APPROVAL_DECISIONS.map((d) => Type.Literal(d))),
  approvalUrl: Type.Union([Url, Type.Null()], {
    description: 'Page under {base_url} to approve or reject; null once decided or expired.',
  }),
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
  rule: Type.Optional(
    Type.String({
      description: 'media_incompatible: the platform media rule broken (duration, aspect_ratio, video_codec, …)',
    }),
  ),
  measured: Type.Optional(Type.Unknown({ description: 'media_incompatible: what the media has' })),
  limit: Type.Optional(Type.Unknown({ description: 'media_incompatible: what the platform takes' })),
});

/** POST /posts/validate: every problem at once, nothing stored. */
export const PolicyCheckSchema = Type.Object({
  valid: Type.Boolean(),
  problems: Type.Array(PolicyProblemSchema),
});
export type PolicyCheck = Static<typeof PolicyCheckSchema>;
