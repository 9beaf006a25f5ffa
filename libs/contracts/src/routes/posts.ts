import { Type } from '@sinclair/typebox';
import {
  ApprovalSchema,
  CreateDraftsResultSchema,
  CreatePostsResultSchema,
  PolicyCheckSchema,
  POST_STATUSES,
  PostListFilterSchema,
  PostPageSchema,
  PostChangeResultSchema,
  PostPayloadSchema,
  PostSchema,
  PostUpdateSchema,
  POSTS_PAGE_MAX,
} from '../post';
import { BULK_ROWS_MAX, BulkCreateResultSchema, POSTS_EXPORT_MAX } from '../bulk';
import { PLATFORMS } from '../platforms';
import { Rpc, type RpcOutput } from '../rpc';
import type { RouteDef } from './define';

/** Longest wait of GET /api/v1/posts/{id}?waitFor=final, in seconds, and the wait when no timeout is named. */
export const POST_WAIT_MAX_SECONDS = 30;
export const POST_WAIT_DEFAULT_SECONDS = 25;
/** ?reshuffle= of PATCH and DELETE /api/v1/posts/{id}. */
export const ReshuffleQuerySchema = Type.Object(
  {
    reshuffle: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description:
          'true: when the post leaves its queued slot (cancelled, or scheduledTime changed), later queued posts of the same schedule and profile move up into it, in slot order; dispatched or edited ones are stepped over. The answer lists them in `reshuffled`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export const GetPostQuerySchema = Type.Object(
  {
    waitFor: Type.Optional(
      Type.Literal('final', {
        description: 'Wait until the post is posted, failed, cancelled or rejected, or until `timeout`.',
      }),
    ),
    timeout: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: POST_WAIT_MAX_SECONDS,
        description: `Seconds to wait with waitFor=final (default ${POST_WAIT_DEFAULT_SECONDS}).`,
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Tool arguments of a post payload: the payload's schema with `platforms` left open, so that a
 * missing or unknown platform reaches posts and is answered with its own code, as over REST.
 */
/** reshuffle for the agent tools: a boolean where REST takes ?reshuffle=true. */
const ReshuffleToolFlag = Type.Optional(
  Type.Boolean({
    description:
      'true: a queued post leaving its slot lets the later queued posts of its schedule and profile move up (they are listed in `reshuffled`).',
  }),
);

const PostPayloadToolSchema = Type.Object(
  {
    ...PostPayloadSchema.properties,
    platforms: Type.Optional(
      Type.Array(Type.String(), {
        description: `Required: one or more of ${PLATFORMS.join(', ')}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** Tool arguments of a create: a post payload plus the key that makes a retried create happen once. */
const PostCreateToolSchema = Type.Object(
  {
    ...PostPayloadToolSchema.properties,
    idempotencyKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'Send the same key when retrying (as the Idempotency-Key header): the create happens once and a retry answers the same postIds; other arguments, idempotency_conflict.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PostRoutes = {
  createPost: {
    id: 'createPost',
    method: 'post',
    path: '/api/v1/posts',
    scope: 'post:write',
    summary:
      'Create posts: one scheduled row per matching profile. Without scheduledTime, due at the next scheduler run.',
    rpc: Rpc.postsCreate,
    body: PostPayloadSchema,
    response: CreatePostsResultSchema,
    status: 201,
  },
  schedulePost: {
    id: 'schedulePost',
    method: 'post',
    path: '/api/v1/posts/schedule',
    scope: 'post:write',
    summary: 'Schedule posts; scheduledTime is required and must be in the future.',
    rpc: Rpc.postsCreate,
    body: PostPayloadSchema,
    response: CreatePostsResultSchema,
    status: 201,
  },
  publishPost: {
    id: 'publishPost',
    method: 'post',
    path: '/api/v1/publish',
    scope: 'post:write',
    summary: 'Publish posts at the next scheduler run (or at scheduledTime); never synchronous with the call.',
    rpc: Rpc.postsCreate,
    body: PostPayloadSchema,
    response: CreatePostsResultSchema,
    status: 201,
    tool: {
      name: 'svc_schedule_post',
      title: 'Schedule a post',
      description:
        'Schedule a post to one or more connected profiles (Instagram, TikTok, YouTube, Threads, Facebook). Without scheduledTime it is published at the next scheduler run. Returns the created post ids, each linked as a postbus://posts/{id} resource; svc_get_post_status with waitSeconds waits for the outcome.',
      input: PostCreateToolSchema,
      toRpc: ({ idempotencyKey, ...body }) => ({ mode: 'posts', body, idempotencyKey }),
      validateInput: false,
      fromRpc: ({ replayed: _r, ...rest }: RpcOutput<typeof Rpc.postsCreate>) => rest,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      oauthScope: 'mcp:write',
    },
  },
  getPost: {
    id: 'getPost',
    method: 'get',
    path: '/api/v1/posts/{id}',
    scope: 'post:read',
    summary:
      'Read a post: status, publishedAt, permalink, failedReason. Answers an ETag (304 to a matching If-None-Match); with waitFor=final it waits up to `timeout` seconds for the post to reach posted, failed, cancelled or rejected (header Postbus-Final says whether it has).',
    rpc: Rpc.postsGet,
    query: GetPostQuerySchema,
    headers: [
      {
        name: 'If-None-Match',
        description: 'The ETag of an earlier answer: 304 without a body while the post is unchanged.',
      },
    ],
    response: PostSchema,
    status: 200,
    tool: {
      name: 'svc_get_post_status',
      title: 'Post status',
      description:
        'Read a post: status (scheduled, posted, failed, …), publishedAt, permalink and failedReason. With waitSeconds, waits for posted, failed, cancelled or rejected and answers then, or as it is when the time is up; a progressToken gets progress notifications meanwhile.',
      input: Type.Object(
        {
          postId: Type.String({ description: 'A post id from svc_schedule_post' }),
          waitSeconds: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: POST_WAIT_MAX_SECONDS,
              description: `Wait up to this many seconds for a final status (as GET /api/v1/posts/{id}?waitFor=final&timeout=); call again to wait longer. Example: ${POST_WAIT_MAX_SECONDS}.`,
            }),
          ),
        },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ id: args.postId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  listPosts: {
    id: 'listPosts',
    method: 'get',
    path: '/api/v1/posts',
    scope: 'post:read',
    summary: 'List posts, newest first, with filters and cursor pagination.',
    rpc: Rpc.postsList,
    query: Type.Object({
      status: Type.Optional(
        Type.String({ description: `One status or a comma-separated list: ${POST_STATUSES.join(', ')}.` }),
      ),
      platform: Type.Optional(Type.String({ description: 'One platform or a comma-separated list.' })),
      profileId: Type.Optional(Type.String()),
      externalId: Type.Optional(Type.String()),
      category: Type.Optional(Type.String()),
      from: Type.Optional(Type.String({ description: 'scheduledTime at or after (ISO 8601 with Z or an offset).' })),
      to: Type.Optional(Type.String({ description: 'scheduledTime before (ISO 8601 with Z or an offset).' })),
      limit: Type.Optional(Type.String({ description: `Page size, 1 to ${POSTS_PAGE_MAX} (default 20).` })),
      cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
    }),
    response: PostPageSchema,
    status: 200,
    tool: {
      name: 'svc_list_scheduled_posts',
      title: 'List posts',
      description:
        'List posts, newest first: filter by status (draft, pending_approval, scheduled, posted, failed, cancelled, rejected), platform, profileId, externalId, category, and scheduledTime range (from/to). Pass nextCursor as cursor for the next page.',
      input: PostListFilterSchema,
      toRpc: (args) => args,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  updatePost: {
    id: 'updatePost',
    method: 'patch',
    path: '/api/v1/posts/{id}',
    scope: 'post:write',
    summary:
      'Change a draft or a scheduled post that has not been dispatched yet (409 post_not_editable otherwise). Setting scheduledTime on a draft schedules it.',
    rpc: Rpc.postsUpdate,
    query: ReshuffleQuerySchema,
    body: PostUpdateSchema,
    response: PostChangeResultSchema,
    status: 200,
    tool: {
      name: 'svc_update_scheduled_post',
      title: 'Change a post',
      description:
        'Change the caption, title, scheduledTime, media, platformMeta or category of a draft or of a scheduled post not yet dispatched. The same posting rules apply. Setting scheduledTime on a draft schedules it. Returns the post.',
      input: Type.Object(
        { postId: Type.String(), ...PostUpdateSchema.properties, reshuffle: ReshuffleToolFlag },
        { additionalProperties: false },
      ),
      toRpc: ({ postId, reshuffle, ...patch }) => ({
        id: postId,
        patch,
        ...(reshuffle !== undefined && { reshuffle }),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  cancelPost: {
    id: 'cancelPost',
    method: 'delete',
    path: '/api/v1/posts/{id}',
    scope: 'post:write',
    summary:
      'Cancel a draft, a post awaiting approval or a scheduled post not yet dispatched; answers the cancelled post.',
    rpc: Rpc.postsCancel,
    query: ReshuffleQuerySchema,
    response: PostChangeResultSchema,
    status: 200,
    tool: {
      name: 'svc_delete_scheduled_post',
      title: 'Cancel a post',
      description:
        'Cancel a draft, a post awaiting approval, or a scheduled post that has not been dispatched to the platform yet. The post stays readable with status cancelled.',
      input: Type.Object({ postId: Type.String(), reshuffle: ReshuffleToolFlag }, { additionalProperties: false }),
      toRpc: ({ postId, reshuffle }) => ({ id: postId, ...(reshuffle !== undefined && { reshuffle }) }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  createDraft: {
    id: 'createDraft',
    method: 'post',
    path: '/api/v1/posts/drafts',
    scope: 'post:draft',
    summary:
      'Store drafts (one per matching profile) that are never published until scheduled, by PATCH with scheduledTime or by approval.',
    rpc: Rpc.postsCreateDrafts,
    body: PostPayloadSchema,
    response: CreateDraftsResultSchema,
    status: 201,
    tool: {
      name: 'svc_draft_post',
      title: 'Save a draft post',
      description:
        'Save a post as a draft (one per matching profile) without scheduling it. The same posting rules apply; scheduledTime is optional. Schedule it later with svc_update_scheduled_post (scheduledTime) or send it for human approval with svc_request_post_approval.',
      input: PostCreateToolSchema,
      toRpc: ({ idempotencyKey, ...body }) => ({ body, idempotencyKey }),
      fromRpc: ({ replayed: _r, ...rest }: RpcOutput<typeof Rpc.postsCreateDrafts>) => rest,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  requestApproval: {
    id: 'requestApproval',
    method: 'post',
    path: '/api/v1/posts/{id}/approval',
    scope: 'approval:request',
    summary:
      'Send a draft for approval: it becomes pending_approval and approvalUrl is a page where a person approves (→ scheduled) or rejects (→ rejected) it.',
    rpc: Rpc.postsRequestApproval,
    response: ApprovalSchema,
    status: 201,
    tool: {
      name: 'svc_request_post_approval',
      title: 'Ask for approval',
      description:
        'Ask a person to approve a draft: returns an approvalUrl to open in a browser. Approved posts become scheduled (due at their scheduledTime, or at the next scheduler run); rejected ones become rejected. Asking again while pending answers the same link.',
      input: Type.Object({ postId: Type.String() }, { additionalProperties: false }),
      toRpc: (args) => ({ id: args.postId }),
      fromRpc: ({ created: _c, ...rest }: RpcOutput<typeof Rpc.postsRequestApproval>) => rest,
      output: ApprovalSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  getApproval: {
    id: 'getApproval',
    method: 'get',
    path: '/api/v1/posts/{id}/approval',
    scope: 'approval:request',
    summary: 'The latest approval request of a post: pending, approved, rejected, expired or cancelled.',
    rpc: Rpc.postsGetApproval,
    response: ApprovalSchema,
    status: 200,
    tool: {
      name: 'svc_get_post_approval_status',
      title: 'Approval status of a post',
      description:
        'Read the approval state of a post sent for approval: decision (pending, approved, rejected, expired, cancelled), the post status, and the approvalUrl while pending.',
      input: Type.Object({ postId: Type.String() }, { additionalProperties: false }),
      toRpc: (args) => ({ id: args.postId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  validatePost: {
    id: 'validatePost',
    method: 'post',
    path: '/api/v1/posts/validate',
    scope: 'post:write',
    summary:
      'Check a post payload against every rule (platforms, content, per-platform policy, time, profiles, media, quota) and list every problem; nothing is stored.',
    rpc: Rpc.postsValidate,
    body: PostPayloadSchema,
    response: PolicyCheckSchema,
    status: 200,
    tool: {
      name: 'svc_validate_post_policy',
      title: 'Check a post before creating it',
      description:
        'Check a post payload without creating anything: answers valid and every problem at once ({ code, message, platform?, field? }), per platform where a platform rule is broken.',
      input: Type.Object(PostPayloadToolSchema.properties, {
        additionalProperties: true,
        description: 'A post payload, as for svc_schedule_post; it may be incomplete.',
      }),
      toRpc: (args) => ({ body: args }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  bulkCreatePosts: {
    id: 'bulkCreatePosts',
    method: 'post',
    path: '/api/v1/posts/bulk',
    scope: 'post:write',
    summary: `Create up to ${BULK_ROWS_MAX} posts at once from a JSON array of post payloads or a text/csv body (columns: platforms, profileIds, caption, title, mediaUrls, mediaId, scheduledTime, externalId, category, tiktok.privacyLevel, youtube.privacyStatus). Every row is checked like a single create; the answer has one result per row (postIds, or code, error and field). dryRun=true stores nothing; atomic=true stores every row or none.`,
    rpc: Rpc.postsBulkCreate,
    body: Type.Array(PostPayloadSchema, { maxItems: BULK_ROWS_MAX }),
    query: Type.Object({
      dryRun: Type.Optional(Type.String({ description: 'true: apply every rule (quota included) and store nothing.' })),
      atomic: Type.Optional(Type.String({ description: 'true: store every row or none (one transaction).' })),
    }),
    response: BulkCreateResultSchema,
    status: 200,
    tool: {
      name: 'svc_bulk_create_posts',
      title: 'Create many posts at once',
      description: `Create up to ${BULK_ROWS_MAX} posts at once; each row is a post payload as for svc_schedule_post and is checked by the same rules. Answers one result per row (postIds, or code, error and field). dryRun stores nothing; atomic stores every row or none.`,
      input: Type.Object(
        {
          rows: Type.Array(Type.Unknown(), {
            maxItems: BULK_ROWS_MAX,
            description:
              'Post payloads, as for svc_schedule_post. Give each row an externalId: a retry then answers the same postIds instead of creating them twice.',
          }),
          dryRun: Type.Optional(Type.Boolean()),
          atomic: Type.Optional(Type.Boolean()),
          idempotencyKey: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              description:
                'Send the same key when retrying: each row is created once, and a retry answers the same postIds row by row.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      toRpc: (args) => args,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      oauthScope: 'mcp:write',
    },
  },
  exportPosts: {
    id: 'exportPosts',
    method: 'get',
    path: '/api/v1/posts/export',
    scope: 'post:read',
    summary: `Every post matching the list filters (at most ${POSTS_EXPORT_MAX}, newest first) as CSV in the bulk import's columns, or as a JSON array.`,
    rpc: Rpc.postsList,
    query: Type.Object({
      format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')], { description: 'Default csv.' })),
      status: Type.Optional(Type.String()),
      platform: Type.Optional(Type.String()),
      profileId: Type.Optional(Type.String()),
      category: Type.Optional(Type.String()),
      from: Type.Optional(Type.String()),
      to: Type.Optional(Type.String()),
    }),
    response: Type.Array(PostSchema),
    status: 200,
  },
} satisfies Record<string, RouteDef>;
