import {
  blueskyApiFor,
  blueskyPermalink,
  blueskyStrongRef,
  createBlueskyPost,
  getBlueskyPost,
  newTid,
  type BlueskyApiOptions,
} from '@postbus/platforms';
import type { AdapterConfig } from '../adapters/adapter-config';
import type { FollowUpContext, FollowUpSender, SentFollowUp } from '../adapters/platform-adapter';

/**
 * Bluesky: a first comment, and each part of a chain, is a post of its own replying to the post
 * (`reply.root`) and to the part before it (`reply.parent`), both named by uri and cid
 * (https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds). As for the
 * post itself, the reply's record key is chosen and saved before the write: a write whose answer
 * was lost is found under that key, and a second write of it is refused by the PDS, never doubled.
 */
export function blueskyFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext): BlueskyApiOptions =>
    blueskyApiFor(ctx.creds, {
      serviceUrl: cfg.blueskyServiceUrl,
      timeoutMs: cfg.requestTimeoutMs,
      access: cfg.mediaAccess,
    });
  const sent = (ctx: FollowUpContext, rkey: string, uri: string): SentFollowUp => ({
    kind: 'sent',
    id: uri,
    permalink: blueskyPermalink(ctx.creds.handle, rkey),
  });
  const keyOf = (ctx: FollowUpContext) => (typeof ctx.progress.rkey === 'string' ? ctx.progress.rkey : undefined);
  return {
    async send(ctx) {
      let rkey = keyOf(ctx);
      if (!rkey) {
        rkey = newTid();
        await ctx.save({ rkey });
      }
      const root = await blueskyStrongRef(api(ctx), ctx.postId);
      const parent = ctx.parentId === ctx.postId ? root : await blueskyStrongRef(api(ctx), ctx.parentId);
      // https://docs.bsky.app/docs/api/com-atproto-repo-create-record
      const created = await createBlueskyPost(api(ctx), ctx.creds.platformUserId, rkey, {
        text: ctx.text,
        reply: { root, parent },
      });
      return sent(ctx, rkey, created.uri);
    },
    async find(ctx) {
      const rkey = keyOf(ctx);
      if (!rkey) return { kind: 'not_found', progress: {} };
      // https://docs.bsky.app/docs/api/com-atproto-repo-get-record
      const found = await getBlueskyPost(api(ctx), ctx.creds.platformUserId, rkey);
      // Not there: the same key is written next, so a write still on its way is refused rather than doubled.
      return found ? sent(ctx, rkey, found.uri) : { kind: 'not_found', progress: { rkey } };
    },
  };
}
