import { AppError, assertValid, isAppError } from '@postbus/contracts';
import { Type } from '@sinclair/typebox';
import express, { Router, type ErrorRequestHandler } from 'express';
import type { SandboxState } from '../state';
import { COMMENT_PLATFORMS, SANDBOX_APP_SECRET } from './comment-store';
import { addComment, announceComment } from './post-comment';
import { verifyCallback } from './webhook-delivery';

const Platform = Type.Union(COMMENT_PLATFORMS.map((p) => Type.Literal(p)));
const Signature = Type.Optional(Type.Union([Type.Literal('valid'), Type.Literal('invalid'), Type.Literal('missing')]));

const Subscribe = Type.Object(
  {
    callbackUrl: Type.String({ pattern: '^https?://' }),
    verifyToken: Type.String({ minLength: 1 }),
    appSecret: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

const CreateComment = Type.Object(
  {
    platform: Platform,
    accountId: Type.String({
      minLength: 1,
      description: 'The sandbox user (Instagram account, Facebook Page, Threads user) whose post is commented on.',
    }),
    postId: Type.Optional(Type.String({ minLength: 1 })),
    parentId: Type.Optional(Type.String({ minLength: 1 })),
    text: Type.String({ maxLength: 8000 }),
    from: Type.Optional(
      Type.Object(
        { id: Type.Optional(Type.String({ minLength: 1 })), name: Type.Optional(Type.String({ minLength: 1 })) },
        { additionalProperties: false },
      ),
    ),
    /** The account comments on its own post. */
    fromAccount: Type.Optional(Type.Boolean()),
    wrapper: Type.Optional(Type.Union([Type.Literal('changes'), Type.Literal('flat')])),
    signature: Signature,
  },
  { additionalProperties: false },
);

const Redeliver = Type.Object({ signature: Signature }, { additionalProperties: false });

/**
 * `/__sandbox/comments`: comments on the emulated Instagram accounts, Facebook Pages and Threads posts, delivered
 * to subscribed callbacks as Meta's signed comment webhooks, and the replies the APIs accepted.
 *
 * - POST /subscriptions {callbackUrl, verifyToken, appSecret?} → Meta's GET handshake, then 201 (400 handshake_failed)
 * - GET /subscriptions; DELETE /subscriptions (204)
 * - POST / {platform, accountId, text, postId?, parentId?, from?, fromAccount?, wrapper?, signature?} → 201 {comment, deliveries}
 * - POST /:commentId/deliver {signature?} → the same body again (a redelivery) → {deliveries}
 * - GET /?platform=&accountId= → comments; GET /replies?platform=&commentId=&accountId= → replies and private replies
 * - GET /posted?platform=&postId= → comments the accounts published on their own posts (first comments, Threads replies), oldest first
 */
export function commentsControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(express.json());
  mountSubscriptionRoutes(router, state);
  mountCommentReadRoutes(router, state);
  mountCommentWriteRoutes(router, state);
  router.use((req) => {
    throw new AppError('not_found', `The sandbox has no comments endpoint ${req.method} ${req.originalUrl}.`);
  });
  router.use(errors);
  return router;
}

/** Callback subscriptions: Meta's verification handshake on subscribe, listing (without secrets) and clearing. */
function mountSubscriptionRoutes(router: Router, state: SandboxState): void {
  router.post('/subscriptions', async (req, res) => {
    const input = assertValid(Subscribe, req.body, 'subscription');
    const check = await verifyCallback(input.callbackUrl, input.verifyToken);
    if (!check.verified) {
      res.status(400).json({
        error: `The callback did not echo the challenge (HTTP ${check.status ?? 'none'}).`,
        code: 'handshake_failed',
        details: { status: check.status, body: check.body },
      });
      return;
    }
    const subscription = state.comments.subscribe(
      input.callbackUrl,
      input.appSecret ?? SANDBOX_APP_SECRET,
      new Date(state.now()),
    );
    res.status(201).json({
      id: subscription.id,
      callbackUrl: subscription.callbackUrl,
      verified: true,
      createdAt: subscription.createdAt,
    });
  });

  router.get('/subscriptions', (_req, res) => {
    res.json(state.comments.subscriptions.map(({ appSecret: _secret, ...s }) => s));
  });

  router.delete('/subscriptions', (_req, res) => {
    state.comments.subscriptions.length = 0;
    res.status(204).end();
  });
}

/** Reads: the replies the APIs accepted, the accounts' own comments, and the comments delivered to them. */
function mountCommentReadRoutes(router: Router, state: SandboxState): void {
  router.get('/replies', (req, res) => {
    res.json(
      state.comments.listReplies({
        platform: query(req.query.platform),
        commentId: query(req.query.commentId),
        accountId: query(req.query.accountId),
      }),
    );
  });

  router.get('/posted', (req, res) => {
    const platform = query(req.query.platform);
    const postId = query(req.query.postId);
    res.json(
      state.comments.postComments.filter(
        (c) => (!platform || c.platform === platform) && (!postId || c.postId === postId),
      ),
    );
  });

  router.get('/', (req, res) => {
    const platform = query(req.query.platform);
    const accountId = query(req.query.accountId);
    const list = [...state.comments.comments.values()].filter(
      (c) => (!platform || c.platform === platform) && (!accountId || c.accountId === accountId),
    );
    res.json(list.map(({ payload: _payload, ...c }) => ({ ...c, createdAt: new Date(c.createdAt).toISOString() })));
  });
}

/** Writes: a new comment on an account's post, announced to the subscribers, and the redelivery of one. */
function mountCommentWriteRoutes(router: Router, state: SandboxState): void {
  router.post('/', async (req, res) => {
    const input = assertValid(CreateComment, req.body, 'comment');
    const account = state.users.get(input.accountId);
    if (!account || account.platform !== input.platform)
      throw new AppError('not_found', `No sandbox ${input.platform} user has the id ${input.accountId}.`);
    const from = input.fromAccount
      ? { id: account.userId, name: account.handle }
      : {
          id: input.from?.id ?? state.ids.numeric(),
          name: input.from?.name ?? `commenter_${state.ids.shortcode().toLowerCase()}`,
        };
    const comment = addComment(state, {
      platform: input.platform,
      accountId: account.userId,
      accountHandle: account.handle,
      postId: input.postId,
      parentId: input.parentId,
      text: input.text,
      from,
      wrapper: input.wrapper,
    });
    const deliveries = await announceComment(state, comment, input.signature);
    const { payload: _payload, ...view } = comment;
    res.status(201).json({ comment: { ...view, createdAt: new Date(view.createdAt).toISOString() }, deliveries });
  });

  router.post('/:commentId/deliver', async (req, res) => {
    const input = assertValid(Redeliver, req.body ?? {}, 'delivery');
    const comment = state.comments.comments.get(req.params.commentId);
    if (!comment) throw new AppError('not_found', `No sandbox comment has the id ${req.params.commentId}.`);
    res.json({ deliveries: await announceComment(state, comment, input.signature) });
  });
}

function query(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

const errors: ErrorRequestHandler = (err, _req, res, _next) => {
  if (isAppError(err)) {
    res.status(err.status).json(err.toBody());
    return;
  }
  if ((err as { type?: string }).type === 'entity.parse.failed') {
    res.status(400).json({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
    return;
  }
  res.status(500).json({ error: (err as Error).message ?? 'Internal error', code: 'internal_error' });
};
