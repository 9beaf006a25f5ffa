import { createXPost, findXPost, xPermalink } from '@postbus/platforms';
import type { AdapterConfig } from '../adapters/adapter-config';
import type { FollowUpContext, FollowUpSender } from '../adapters/platform-adapter';

/** A lost answer older than this is not looked for further back: the chain's parts go out minutes apart. */
const LOOKBACK_MS = 60 * 60_000;

/**
 * X reply chains: each part is a post answering the part before it (`reply.in_reply_to_tweet_id`,
 * https://docs.x.com/x-api/posts/create-post). X takes no idempotency key, so the time of the send
 * is saved first; a lost answer is settled by finding the user's own reply to the same parent with
 * the same text (https://docs.x.com/x-api/users/get-posts) before anything is sent again.
 */
export function xFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext) => ({
    baseUrl: cfg.xApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs: cfg.requestTimeoutMs,
  });
  return {
    async send(ctx) {
      await ctx.save({ sentAt: Date.now() });
      const post = await createXPost(api(ctx), { text: ctx.text, inReplyTo: ctx.parentId });
      return { kind: 'sent', id: post.id, permalink: xPermalink(ctx.creds.handle, post.id) };
    },
    async find(ctx) {
      const sentAt = typeof ctx.progress.sentAt === 'number' ? ctx.progress.sentAt : Date.now() - LOOKBACK_MS;
      const found = await findXPost(api(ctx), ctx.creds.platformUserId, new Date(sentAt), {
        text: ctx.text,
        inReplyTo: ctx.parentId,
      });
      return found
        ? { kind: 'sent', id: found.id, permalink: xPermalink(ctx.creds.handle, found.id) }
        : { kind: 'not_found', progress: {} };
    },
  };
}
