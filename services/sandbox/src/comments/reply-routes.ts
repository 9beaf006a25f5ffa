import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type Response } from 'express';
import { GraphError, invalidParameter, objectNotFound } from '../meta/graph-error';
import { authenticate, currentUser, graphErrorHandler, graphParams, passFault, sendGraph } from '../meta/graph-http';
import { metaPlatformGate } from '../meta/platform-gate';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import type { CommentPlatform, SandboxComment } from './comment-store';
import { addComment, announceComment } from './post-comment';

const MESSAGE_MAX: Record<Exclude<CommentPlatform, 'threads'>, number> = { instagram: 2200, facebook: 8000 };
type ReplyPlatform = keyof typeof MESSAGE_MAX;

/**
 * Instagram (`/instagram/{version}`): `POST /{ig-comment-id}/replies?message=` and the private reply
 * `POST /{ig-user-id}/messages` with `recipient={"comment_id":…}`, `message={"text":…}`.
 */
export function instagramRepliesRouter(state: SandboxState, logger: Logger): Router {
  return repliesRouter(state, logger, 'instagram', 'replies');
}

/**
 * Facebook (`/facebook/{version}`): `POST /{comment-id}/comments?message=` as the Page and the private
 * reply `POST /{page-id}/messages` with `recipient={"comment_id":…}`, `message={"text":…}`.
 */
export function facebookRepliesRouter(state: SandboxState, logger: Logger): Router {
  return repliesRouter(state, logger, 'facebook', 'comments');
}

function repliesRouter(
  state: SandboxState,
  logger: Logger,
  platform: ReplyPlatform,
  replyEdge: 'replies' | 'comments',
): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, platform),
    authenticate(state, platform),
  ];

  router.post(`/:commentId/${replyEdge}`, gate, (req: Request<{ commentId: string }>, res: Response) => {
    if (!passFault(state, platform, 'publish', res)) return;
    const account = currentUser(res);
    const comment = ownComment(state, account, platform, req.params.commentId);
    if (platform === 'instagram' && comment.parentId)
      throw invalidParameter('Replies can only be made to top-level comments.');
    const text = message(platform, graphParams(req).message);
    const reply = addComment(state, {
      platform,
      accountId: account.userId,
      accountHandle: account.handle,
      postId: comment.postId,
      parentId: comment.id,
      text,
      from: { id: account.userId, name: account.handle },
    });
    state.comments.replies.push({
      platform,
      kind: 'reply',
      id: reply.id,
      commentId: comment.id,
      accountId: account.userId,
      text,
      createdAt: new Date(state.now()).toISOString(),
    });
    // Meta announces the account's own reply like any comment; the subscriber must not answer it.
    void announceComment(state, reply).catch((err: Error) =>
      logger.warn('announcing a reply failed', { err: err.message }),
    );
    sendGraph(state, res, 200, { id: reply.id });
  });

  router.post('/:accountId/messages', gate, (req: Request<{ accountId: string }>, res: Response) => {
    if (!passFault(state, platform, 'publish', res)) return;
    const account = currentUser(res);
    if (req.params.accountId !== 'me' && req.params.accountId !== account.userId)
      throw objectNotFound('post', req.params.accountId);
    const params = graphParams(req);
    const commentId = jsonField(objectParam(req, 'recipient') ?? params.recipient, 'recipient', 'comment_id');
    const text = message(platform, jsonField(objectParam(req, 'message') ?? params.message, 'message', 'text'));
    const comment = ownComment(state, account, platform, commentId);
    if (state.comments.replies.some((r) => r.kind === 'private_reply' && r.commentId === comment.id)) {
      throw new GraphError(400, 10, '(#10) A private reply has already been sent for this comment.', {
        isTransient: false,
      });
    }
    const id = `m_${state.ids.token('')}`;
    state.comments.replies.push({
      platform,
      kind: 'private_reply',
      id,
      commentId: comment.id,
      accountId: account.userId,
      text,
      createdAt: new Date(state.now()).toISOString(),
    });
    sendGraph(state, res, 200, { recipient_id: comment.from.id, message_id: id });
  });

  router.use(graphErrorHandler(state, logger));
  return router;
}

/** A comment on one of the account's posts; any other id answers Graph's "does not exist". */
function ownComment(state: SandboxState, account: SandboxUser, platform: CommentPlatform, id: string): SandboxComment {
  const comment = state.comments.comments.get(id);
  if (!comment || comment.platform !== platform || comment.accountId !== account.userId)
    throw objectNotFound('post', id);
  return comment;
}

function message(platform: ReplyPlatform, text: string | undefined): string {
  if (!text?.trim()) throw invalidParameter('The parameter message is required.');
  if (text.length > MESSAGE_MAX[platform])
    throw invalidParameter(`Param message must be at most ${MESSAGE_MAX[platform]} characters long.`);
  return text;
}

/** An object sent in a JSON body, as the JSON text a form field would carry. */
function objectParam(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return value && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : undefined;
}

/** `recipient={"comment_id":"…"}`: Graph takes objects as JSON in a form field (or as a JSON body). */
function jsonField(raw: string | undefined, param: string, field: string): string {
  let value: unknown;
  try {
    value = raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    throw invalidParameter(`Param ${param} must be a JSON object.`);
  }
  const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  if (typeof inner !== 'string' || !inner) throw invalidParameter(`The parameter ${param}[${field}] is required.`);
  return inner;
}
