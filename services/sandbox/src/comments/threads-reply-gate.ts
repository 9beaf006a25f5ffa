import type { Logger } from '@postbus/kit';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { objectNotFound } from '../meta/graph-error';
import { authenticate, currentUser, graphErrorHandler, graphParams } from '../meta/graph-http';
import type { SandboxState } from '../state';
import { addComment, announceComment } from './post-comment';

/**
 * Threads replies to sandbox comments (`POST /{user}/threads` with `reply_to_id`, then
 * `threads_publish`), mounted before the Threads emulator, which creates and publishes the
 * containers as usual: this checks that the comment is under one of the user's posts, and once the
 * reply is published records it and announces it as the account's own reply.
 */
export function threadsReplyGate(state: SandboxState, logger: Logger): Router {
  const router = Router();

  // Only requests about sandbox comments are looked at; every other request reaches the emulator untouched.
  const aboutComment = (req: Request) => {
    const replyTo = graphParams(req).reply_to_id;
    const comment = replyTo ? state.comments.comments.get(replyTo) : undefined;
    return comment?.platform === 'threads';
  };
  const aboutReply = (req: Request) => state.comments.threadsReplyContainers.has(graphParams(req).creation_id ?? '');
  const auth = authenticate(state, 'threads');
  const gate = (applies: (req: Request) => boolean) => (req: Request, res: Response, next: NextFunction) =>
    applies(req) ? auth(req, res, next) : next('route');

  router.post('/:userId/threads', gate(aboutComment), (req: Request, res: Response, next: NextFunction) => {
    const params = graphParams(req);
    const comment = state.comments.comments.get(params.reply_to_id)!;
    const user = currentUser(res);
    if (comment.accountId !== user.userId) throw objectNotFound('post', comment.id);
    afterSuccess(res, (body) => {
      if (typeof body.id === 'string')
        state.comments.threadsReplyContainers.set(body.id, {
          commentId: comment.id,
          accountId: user.userId,
          text: params.text ?? '',
        });
    });
    next();
  });

  router.post('/:userId/threads_publish', gate(aboutReply), (req: Request, res: Response, next: NextFunction) => {
    const containerId = graphParams(req).creation_id;
    const pending = state.comments.threadsReplyContainers.get(containerId)!;
    const account = currentUser(res);
    afterSuccess(res, (body) => {
      if (typeof body.id !== 'string') return;
      state.comments.threadsReplyContainers.delete(containerId);
      const comment = state.comments.comments.get(pending.commentId)!;
      state.comments.replies.push({
        platform: 'threads',
        kind: 'reply',
        id: body.id,
        commentId: pending.commentId,
        accountId: pending.accountId,
        text: pending.text,
        createdAt: new Date(state.now()).toISOString(),
      });
      const reply = addComment(state, {
        id: body.id,
        platform: 'threads',
        accountId: account.userId,
        accountHandle: account.handle,
        postId: comment.postId,
        parentId: comment.id,
        text: pending.text,
        from: { id: account.userId, name: account.handle },
      });
      void announceComment(state, reply).catch((err: Error) =>
        logger.warn('announcing a reply failed', { err: err.message }),
      );
    });
    next();
  });

  router.use(graphErrorHandler(state, logger));
  return router;
}

/** Runs `fn` with the JSON body the emulator answers, when it answers 200. */
function afterSuccess(res: Response, fn: (body: Record<string, unknown>) => void): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode === 200 && body && typeof body === 'object') fn(body as Record<string, unknown>);
    return json(body);
  };
}
