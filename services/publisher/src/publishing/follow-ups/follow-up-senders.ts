import {
  commentOnFacebookPost,
  commentOnInstagramMedia,
  createThreadsContainer,
  findOwnFacebookComment,
  findOwnInstagramComment,
  findOwnYouTubeComment,
  findThreadsReply,
  getThreadsContainerStatus,
  insertYouTubeComment,
  publishThreadsContainer,
  threadsContainerFailure,
} from '@postbus/platforms';
import type { AdapterConfig } from '../adapters/adapter-config';
import type { FollowUpContext, FollowUpSender } from '../adapters/platform-adapter';

/** Instagram: a comment on the media (`POST /{ig-media-id}/comments`), found again among the media's comments. */
export function instagramFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext) => ({
    baseUrl: cfg.instagramApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs: cfg.requestTimeoutMs,
  });
  return {
    async send(ctx) {
      const { id } = await commentOnInstagramMedia(api(ctx), ctx.postId, ctx.text);
      return { kind: 'sent', id, permalink: null };
    },
    async find(ctx) {
      const found = await findOwnInstagramComment(api(ctx), ctx.postId, ctx.creds.handle, ctx.text);
      return found ? { kind: 'sent', id: found.id, permalink: null } : { kind: 'not_found', progress: {} };
    },
  };
}

/** Facebook: a comment on the Page's post as the Page (`POST /{post-id}/comments`), found again among the post's comments. */
export function facebookFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext) => ({
    baseUrl: cfg.facebookApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs: cfg.requestTimeoutMs,
  });
  return {
    async send(ctx) {
      const { id } = await commentOnFacebookPost(api(ctx), ctx.postId, ctx.text);
      return { kind: 'sent', id, permalink: null };
    },
    async find(ctx) {
      const found = await findOwnFacebookComment(api(ctx), ctx.postId, ctx.creds.platformUserId, ctx.text);
      return found ? { kind: 'sent', id: found.id, permalink: null } : { kind: 'not_found', progress: {} };
    },
  };
}

/**
 * Threads: a reply is a TEXT container with `reply_to_id` (kept in the progress), published once
 * FINISHED (checked, never slept on). A lost publish is settled by the container: PUBLISHED means the
 * reply is live (its id read from the parent's replies), anything else that the same container may
 * still be published, or a new one made; a container goes live only once.
 */
export function threadsFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext) => ({
    baseUrl: cfg.threadsApiUrl,
    accessToken: ctx.creds.accessToken,
    userId: ctx.creds.platformUserId,
    timeoutMs: cfg.requestTimeoutMs,
  });
  const live = async (ctx: FollowUpContext) => {
    const found = await findThreadsReply(api(ctx), ctx.parentId, ctx.creds.handle, ctx.text);
    return found ? { kind: 'sent' as const, id: found.id, permalink: found.permalink } : undefined;
  };
  return {
    async send(ctx) {
      let containerId = typeof ctx.progress.containerId === 'string' ? ctx.progress.containerId : undefined;
      if (!containerId) {
        // https://developers.facebook.com/docs/threads/retrieve-and-manage-replies/create-replies
        containerId = await createThreadsContainer(api(ctx), {
          media_type: 'TEXT',
          text: ctx.text,
          reply_to_id: ctx.parentId,
        });
        await ctx.save({ containerId });
      }
      const state = await getThreadsContainerStatus({ ...api(ctx), containerId });
      if (state.status === 'ERROR' || state.status === 'EXPIRED')
        throw threadsContainerFailure(state.status, state.errorMessage, containerId);
      if (state.status === 'IN_PROGRESS') return { kind: 'waiting', progress: { containerId } };
      if (state.status === 'PUBLISHED') return (await live(ctx)) ?? { kind: 'sent', id: containerId, permalink: null };
      const { platformPostId, permalink } = await publishThreadsContainer({ ...api(ctx), containerId });
      return { kind: 'sent', id: platformPostId, permalink };
    },
    async find(ctx) {
      const containerId = typeof ctx.progress.containerId === 'string' ? ctx.progress.containerId : undefined;
      if (!containerId) return (await live(ctx)) ?? { kind: 'not_found', progress: {} };
      const state = await getThreadsContainerStatus({ ...api(ctx), containerId });
      // Threads does not say which reply a container became: the parent's replies do; the container stands in when they do not list it.
      if (state.status === 'PUBLISHED') return (await live(ctx)) ?? { kind: 'sent', id: containerId, permalink: null };
      return {
        kind: 'not_found',
        progress: state.status === 'ERROR' || state.status === 'EXPIRED' ? {} : { containerId },
      };
    },
  };
}

/** YouTube: a top-level comment (`commentThreads.insert`), found again among the video's newest comment threads. */
export function youtubeFollowUps(cfg: AdapterConfig): FollowUpSender {
  const api = (ctx: FollowUpContext) => ({
    apiUrl: cfg.youtubeApiUrl,
    accessToken: ctx.creds.accessToken,
    timeoutMs: cfg.requestTimeoutMs,
  });
  const permalink = (ctx: FollowUpContext, id: string) => `https://www.youtube.com/watch?v=${ctx.postId}&lc=${id}`;
  return {
    async send(ctx) {
      const { id } = await insertYouTubeComment(api(ctx), {
        channelId: ctx.creds.platformUserId,
        videoId: ctx.postId,
        text: ctx.text,
      });
      return { kind: 'sent', id, permalink: permalink(ctx, id) };
    },
    async find(ctx) {
      const found = await findOwnYouTubeComment(api(ctx), {
        channelId: ctx.creds.platformUserId,
        videoId: ctx.postId,
        text: ctx.text,
      });
      return found
        ? { kind: 'sent', id: found.id, permalink: permalink(ctx, found.id) }
        : { kind: 'not_found', progress: {} };
    },
  };
}
