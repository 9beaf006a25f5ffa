import { Type } from '@sinclair/typebox';
import {
  ApprovalSchema,
  CreateDraftsResultSchema,
  CreatePostsResultSchema,
  PolicyCheckSchema,
  PostListFilterSchema,
  PostChangeResultSchema,
  PostPageSchema,
  PostSchema,
} from '../post';
import { BULK_ROWS_MAX, BulkCreateResultSchema } from '../bulk';
import { defineRpc } from './define';

export const CreateModeSchema = Type.Union([Type.Literal('posts'), Type.Literal('schedule'), Type.Literal('publish')]);

const IdempotencyKey = Type.Optional(Type.String({ minLength: 1, maxLength: 255 }));
const Replayed = Type.Boolean({ description: 'True when an earlier identical request was answered again.' });

/** Bodies travel as `unknown` so that posts reports every rule with its own code, not a schema error. */
export const PostsRpc = {
  postsCreate: defineRpc(
    'posts.create',
    Type.Object({ mode: CreateModeSchema, body: Type.Unknown(), idempotencyKey: IdempotencyKey }),
    Type.Object({ ...CreatePostsResultSchema.properties, replayed: Replayed }),
  ),
  postsCreateDrafts: defineRpc(
    'posts.drafts.create',
    Type.Object({ body: Type.Unknown(), idempotencyKey: IdempotencyKey }),
    Type.Object({ ...CreateDraftsResultSchema.properties, replayed: Replayed }),
  ),
  postsGet: defineRpc('posts.get', Type.Object({ id: Type.String() }), PostSchema),
  postsList: defineRpc('posts.list', PostListFilterSchema, PostPageSchema),
  // reshuffle arrives as sent when it is not true or false, and is refused by posts with its field named.
  postsUpdate: defineRpc(
    'posts.update',
    Type.Object({ id: Type.String(), patch: Type.Unknown(), reshuffle: Type.Optional(Type.Unknown()) }),
    PostChangeResultSchema,
  ),
  postsCancel: defineRpc(
    'posts.cancel',
    Type.Object({ id: Type.String(), reshuffle: Type.Optional(Type.Unknown()) }),
    PostChangeResultSchema,
  ),
  postsRequestApproval: defineRpc(
    'posts.approvals.request',
    Type.Object({ id: Type.String() }),
    Type.Object({
      ...ApprovalSchema.properties,
      created: Type.Boolean({ description: 'False when a pending request was answered again.' }),
    }),
  ),
  postsGetApproval: defineRpc('posts.approvals.get', Type.Object({ id: Type.String() }), ApprovalSchema),
  postsValidate: defineRpc('posts.validate', Type.Object({ body: Type.Unknown() }), PolicyCheckSchema),
  /**
   * connections, before it commits a profile of the principal's account leaving `active` (a
   * disconnect, a token refused for good): the profile's fact as the change will leave it, so that
   * a create sent after the change is checked with connections rather than passed on posts' word of
   * an active profile.
   */
  postsProfileWithdrawn: defineRpc(
    'posts.profiles.withdrawn',
    Type.Object({
      profileId: Type.String(),
      platform: Type.String(),
      status: Type.Union([Type.Literal('disconnected'), Type.Literal('needs_reconnect')]),
      connectedAt: Type.String(),
      revision: Type.Integer({ minimum: 1 }),
    }),
    Type.Object({}),
  ),
  postsBulkCreate: defineRpc(
    'posts.bulk.create',
    Type.Object({
      rows: Type.Array(Type.Unknown(), { maxItems: BULK_ROWS_MAX }),
      dryRun: Type.Optional(Type.Boolean()),
      atomic: Type.Optional(Type.Boolean()),
      idempotencyKey: IdempotencyKey,
    }),
    BulkCreateResultSchema,
  ),
};
