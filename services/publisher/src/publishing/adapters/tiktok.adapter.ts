import {
  MediaReader,
  detectMediaKinds,
  fetchTikTokPublishStatus,
  initTikTokPhoto,
  initTikTokVideo,
  probeMedia,
  putTikTokChunk,
  queryTikTokCreatorInfo,
  tiktokChunkPlan,
  tiktokInvalidInput,
  tiktokPermalink,
  tiktokPostInfo,
  tiktokPublishFailure,
  tiktokVideoContentType,
  type TikTokPostSettings,
} from '@postbus/platforms';
import { metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import { published, type Checkpoint, type PlatformAdapter, type PublishContext, type StepResult } from './platform-adapter';

interface TikTokCheckpoint extends Checkpoint {
  username?: string;
  publishId?: string;
  /** FILE_UPLOAD only. */
  uploadUrl?: string;
  size?: number;
  contentType?: string;
  chunkSize?: number;
  chunks?: number;
  uploaded?: boolean;
}

/**
 * TikTok direct posts: creator_info first (it bounds privacy and toggles), then a video by
 * PULL_FROM_URL (verified prefixes) or FILE_UPLOAD (chunked PUTs streamed from the media URL),
 * or a photo post; then status checks until PUBLISH_COMPLETE.
 */
export function tiktokAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext) => ({ baseUrl: cfg.tiktokApiUrl, accessToken: ctx.creds.accessToken, timeoutMs: cfg.requestTimeoutMs });
  const pulls = (url: string) => cfg.tiktokPullPrefixes.some((prefix) => url.startsWith(prefix));

  async function start(ctx: PublishContext): Promise<TikTokCheckpoint> {
    const { job } = ctx;
    const kinds = await detectMediaKinds(job.mediaUrls);
    if (kinds.length === 0) throw tiktokInvalidInput('missing_media', 'A TikTok post needs a video or photos; add media to the post.');
    const isPhoto = kinds.every((k) => k === 'image');
    if (!isPhoto && kinds.length > 1) throw tiktokInvalidInput('mixed_media', 'A TikTok post holds one video, or photos only; publish the video on its own.');
    const creator = await queryTikTokCreatorInfo(api(ctx));
    const settings = metaFor(job.platformMeta, 'tiktok') as TikTokPostSettings;
    const postInfo = tiktokPostInfo(isPhoto ? 'photo' : 'video', { title: job.title, caption: job.caption }, settings, creator);
    const username = creator.username || ctx.creds.handle;

    if (isPhoto) {
      await ctx.save({ username, phase: 'publishing' });
      return { username, publishId: await initTikTokPhoto(api(ctx), { postInfo, photoUrls: job.mediaUrls }), uploaded: true };
    }
    const url = job.mediaUrls[0];
    if (pulls(url)) {
      await ctx.save({ username, phase: 'publishing' });
      const { publishId } = await initTikTokVideo(api(ctx), { postInfo, source: { source: 'PULL_FROM_URL', videoUrl: url } });
      return { username, publishId, uploaded: true };
    }
    const media = await probeMedia(url, { platform: 'tiktok', timeoutMs: cfg.requestTimeoutMs });
    const plan = tiktokChunkPlan(media.size, cfg.tiktokChunkBytes);
    const { publishId, uploadUrl } = await initTikTokVideo(api(ctx), {
      postInfo,
      source: { source: 'FILE_UPLOAD', videoSize: media.size, chunkSize: plan.chunkSize, totalChunkCount: plan.totalChunkCount },
    });
    return { username, publishId, uploadUrl: uploadUrl!, size: media.size, contentType: tiktokVideoContentType(media.contentType), chunkSize: plan.chunkSize, chunks: plan.totalChunkCount, uploaded: false };
  }

  /** PUTs the chunks from the one TikTok already holds; the last one hands the post to publishing. */
  async function upload(ctx: PublishContext, cp: TikTokCheckpoint, fromByte: number): Promise<void> {
    const { size, chunkSize, chunks } = cp as Required<TikTokCheckpoint>;
    const firstChunk = Math.floor(fromByte / chunkSize);
    const reader = await MediaReader.open(ctx.job.mediaUrls[0], firstChunk * chunkSize, { platform: 'tiktok', timeoutMs: cfg.requestTimeoutMs });
    try {
      for (let i = firstChunk; i < chunks; i++) {
        const first = i * chunkSize;
        const last = i === chunks - 1 ? size - 1 : first + chunkSize - 1;
        if (i === chunks - 1) await ctx.save({ ...cp, phase: 'publishing' });
        await putTikTokChunk({ uploadUrl: cp.uploadUrl!, first, last, total: size, contentType: cp.contentType!, body: reader.chunk(last - first + 1), timeoutMs: cfg.uploadTimeoutMs, answerTimeoutMs: cfg.requestTimeoutMs });
      }
    } finally {
      await reader.close();
    }
  }

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as TikTokCheckpoint;
      const resumingUpload = !!cp.publishId && !cp.uploaded;
      const handedOver = !cp.publishId || !cp.uploaded;
      if (!cp.publishId) {
        cp = await start(ctx);
        await ctx.save(cp);
      }
      if (!cp.uploaded) {
        const held = resumingUpload ? ((await fetchTikTokPublishStatus(api(ctx), cp.publishId!)).uploadedBytes ?? 0) : 0;
        if (held < cp.size!) await upload(ctx, cp, held);
        cp = { ...cp, uploaded: true };
        await ctx.save(cp);
      }
      // TikTok always takes a while once it has the post: the first status check is scheduled, not made now.
      if (handedOver) return { kind: 'waiting', checkpoint: cp, what: 'TikTok was still processing the post' };
      const state = await fetchTikTokPublishStatus(api(ctx), cp.publishId!);
      if (state.status === 'FAILED') throw tiktokPublishFailure(state.failReason, cp.publishId!);
      if (state.status === 'PUBLISH_COMPLETE' || state.status === 'SEND_TO_USER_INBOX') {
        const postId = state.postIds[0];
        return published(postId ?? cp.publishId!, postId ? tiktokPermalink(cp.username!, postId) : null);
      }
      return { kind: 'waiting', checkpoint: cp, what: 'TikTok was still processing the post' };
    },

    /** With a publish_id TikTok's status tells everything; an init that went unanswered left none to ask about. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as TikTokCheckpoint;
      if (!cp.publishId) return { kind: 'unknown' };
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}
