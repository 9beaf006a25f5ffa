import {
  MediaReader,
  checkMediaRules,
  detectMediaKinds,
  fetchTikTokPublishStatus,
  initTikTokPhoto,
  initTikTokVideo,
  isTikTokPullable,
  probeMedia,
  putTikTokChunk,
  queryTikTokCreatorInfo,
  tiktokChunkPlan,
  tiktokInvalidInput,
  tiktokPermalink,
  tiktokPhotoFormat,
  tiktokPostInfo,
  tiktokPublishFailure,
  tiktokVideoContentType,
  TIKTOK_URL_PROPERTIES_PAGE,
  type MediaFacts,
  type MediaFetchOptions,
  type TikTokPostSettings,
} from '@postbus/platforms';
import type { PostWarning } from '@postbus/contracts';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type Resolution,
  type StepResult,
} from './platform-adapter';

/** The `post_info` TikTok's init takes (privacy, toggles, title). */
type TikTokPostInfo = ReturnType<typeof tiktokPostInfo>;

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
  /** When TikTok was first seen to have published the post without releasing its id. */
  completedAt?: string;
}

/**
 * TikTok direct posts: creator_info first (it bounds privacy and toggles), then a video by
 * PULL_FROM_URL (verified prefixes) or FILE_UPLOAD (chunked PUTs streamed from the media URL),
 * or a photo post; then status checks until PUBLISH_COMPLETE.
 */
export function tiktokAdapter(cfg: AdapterConfig): PlatformAdapter {
  return new TikTokAdapter(cfg);
}

class TikTokAdapter implements PlatformAdapter {
  private readonly mediaRead: MediaFetchOptions;

  constructor(private readonly cfg: AdapterConfig) {
    this.mediaRead = mediaOptions(cfg, 'tiktok');
  }

  async run(ctx: PublishContext): Promise<StepResult> {
    let cp = ctx.checkpoint as TikTokCheckpoint;
    const resumingUpload = !!cp.publishId && !cp.uploaded;
    const handedOver = !cp.publishId || !cp.uploaded;
    if (!cp.publishId) {
      cp = await this.start(ctx);
      await ctx.save(cp);
    }
    if (!cp.uploaded) {
      const held = resumingUpload
        ? ((await fetchTikTokPublishStatus(this.api(ctx), cp.publishId!)).uploadedBytes ?? 0)
        : 0;
      if (held < cp.size!) await this.upload(ctx, cp, held);
      cp = { ...cp, uploaded: true };
      await ctx.save(cp);
    }
    // TikTok always takes a while once it has the post: the first status check is scheduled, not made now.
    if (handedOver) return { kind: 'waiting', checkpoint: cp, what: 'TikTok was still processing the post' };
    return this.checkStatus(ctx, cp);
  }

  /** With a publish_id TikTok's status tells everything; an init that went unanswered left none to ask about. */
  async resolve(ctx: PublishContext): Promise<Resolution> {
    const cp = ctx.checkpoint as TikTokCheckpoint;
    if (!cp.publishId) return { kind: 'unknown' };
    return { kind: 'continue', checkpoint: withoutPhase(cp) };
  }

  private api(ctx: PublishContext) {
    return { baseUrl: this.cfg.tiktokApiUrl, accessToken: ctx.creds.accessToken, timeoutMs: this.cfg.requestTimeoutMs };
  }

  private pulls(url: string): boolean {
    return isTikTokPullable(url, this.cfg.tiktokPullPrefixes);
  }

  private async start(ctx: PublishContext): Promise<TikTokCheckpoint> {
    const { job } = ctx;
    const kinds = await detectMediaKinds(ctx.mediaUrls, this.mediaRead);
    if (kinds.length === 0)
      throw tiktokInvalidInput('missing_media', 'A TikTok post needs a video or photos; add media to the post.');
    const isPhoto = kinds.every((k) => k === 'image');
    if (!isPhoto && kinds.length > 1)
      throw tiktokInvalidInput(
        'mixed_media',
        'A TikTok post holds one video, or photos only; publish the video on its own.',
      );
    const creator = await queryTikTokCreatorInfo(this.api(ctx));
    if (!isPhoto) assertWithinCreatorDuration(ctx.storedMedia, creator.maxVideoPostDurationSec);
    const settings = metaFor(job.platformMeta, 'tiktok') as TikTokPostSettings;
    const postInfo = tiktokPostInfo(
      isPhoto ? 'photo' : 'video',
      { title: job.title, caption: job.caption },
      settings,
      creator,
    );
    const username = creator.username || ctx.creds.handle;
    return isPhoto ? this.startPhotos(ctx, postInfo, username) : this.startVideo(ctx, postInfo, username);
  }

  private async startPhotos(
    ctx: PublishContext,
    postInfo: TikTokPostInfo,
    username: string,
  ): Promise<TikTokCheckpoint> {
    assertPullablePhotos(ctx.mediaUrls, (url) => this.pulls(url));
    await ctx.save({ username, phase: 'publishing' });
    // Photos are pulled only: https://developers.tiktok.com/doc/content-posting-api-reference-photo-post
    return {
      username,
      publishId: await initTikTokPhoto(this.api(ctx), { postInfo, photoUrls: ctx.mediaUrls }),
      uploaded: true,
    };
  }

  private async startVideo(ctx: PublishContext, postInfo: TikTokPostInfo, username: string): Promise<TikTokCheckpoint> {
    const url = ctx.mediaUrls[0];
    if (this.pulls(url)) {
      await ctx.save({ username, phase: 'publishing' });
      const { publishId } = await initTikTokVideo(this.api(ctx), {
        postInfo,
        source: { source: 'PULL_FROM_URL', videoUrl: url },
      });
      return { username, publishId, uploaded: true };
    }
    const media = await probeMedia(url, this.mediaRead);
    const plan = tiktokChunkPlan(media.size, this.cfg.tiktokChunkBytes);
    const { publishId, uploadUrl } = await initTikTokVideo(this.api(ctx), {
      postInfo,
      source: {
        source: 'FILE_UPLOAD',
        videoSize: media.size,
        chunkSize: plan.chunkSize,
        totalChunkCount: plan.totalChunkCount,
      },
    });
    return {
      username,
      publishId,
      uploadUrl: uploadUrl!,
      size: media.size,
      contentType: tiktokVideoContentType(media.contentType),
      chunkSize: plan.chunkSize,
      chunks: plan.totalChunkCount,
      uploaded: false,
    };
  }

  /** PUTs the chunks from the one TikTok already holds; the last one hands the post to publishing. */
  private async upload(ctx: PublishContext, cp: TikTokCheckpoint, fromByte: number): Promise<void> {
    const { size, chunkSize, chunks } = cp as Required<TikTokCheckpoint>;
    const firstChunk = Math.floor(fromByte / chunkSize);
    const reader = await MediaReader.open(ctx.mediaUrls[0], firstChunk * chunkSize, this.mediaRead);
    try {
      for (let i = firstChunk; i < chunks; i++) {
        const first = i * chunkSize;
        const last = i === chunks - 1 ? size - 1 : first + chunkSize - 1;
        if (i === chunks - 1) await ctx.save({ ...cp, phase: 'publishing' });
        await putTikTokChunk({
          uploadUrl: cp.uploadUrl!,
          first,
          last,
          total: size,
          contentType: cp.contentType!,
          body: reader.chunk(last - first + 1),
          timeoutMs: this.cfg.uploadTimeoutMs,
          answerTimeoutMs: this.cfg.requestTimeoutMs,
        });
      }
    } finally {
      await reader.close();
    }
  }

  /** Where TikTok stands with a post it holds: failed, published (with its id, or waiting for it), or still processing. */
  private async checkStatus(ctx: PublishContext, cp: TikTokCheckpoint): Promise<StepResult> {
    const state = await fetchTikTokPublishStatus(this.api(ctx), cp.publishId!);
    if (state.status === 'FAILED') throw tiktokPublishFailure(state.failReason, cp.publishId!);
    if (state.status === 'PUBLISH_COMPLETE' || state.status === 'SEND_TO_USER_INBOX') {
      const postId = state.postIds[0];
      if (postId) return published(postId, tiktokPermalink(cp.username!, postId));
      if (state.status === 'PUBLISH_COMPLETE' && isPublic(ctx)) return this.awaitPostId(cp);
      return published(cp.publishId!, null);
    }
    return { kind: 'waiting', checkpoint: cp, what: 'TikTok was still processing the post' };
  }

  /**
   * A public post is live but its id is withheld until moderation ends, "usually within one minute
   * … in some cases a few hours" (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status):
   * keep checking, live, up to TIKTOK_POST_ID_WAIT_MS, then finish under the publish_id with a warning.
   */
  private awaitPostId(cp: TikTokCheckpoint): StepResult {
    const completedAt = cp.completedAt ?? new Date().toISOString();
    const waited = Date.now() - Date.parse(completedAt);
    if (waited < this.cfg.tiktokPostIdWaitMs)
      return {
        kind: 'waiting',
        checkpoint: { ...cp, completedAt, live: true },
        what: 'TikTok had not released the post id yet',
      };
    return published(cp.publishId!, null, [postIdPendingWarning(cp.publishId!, waited)]);
  }
}

/**
 * Posts checks photos when they are created; this guards posts written before, or a prefix
 * dropped since: TikTok would fail them anyway (`url_ownership_unverified`, `file_format_check_failed`).
 */
function assertPullablePhotos(urls: string[], pulls: (url: string) => boolean): void {
  if (urls.some((u) => tiktokPhotoFormat({ url: u }) === 'other')) {
    throw tiktokInvalidInput(
      'unsupported_photo_format',
      'TikTok takes photos as JPEG or WebP only; convert the images and publish again.',
    );
  }
  if (!urls.every(pulls)) {
    throw tiktokInvalidInput(
      'media_url_unverified',
      `TikTok pulls photos only from URL prefixes verified for the app, and this post's photos are not under TIKTOK_PULL_URL_PREFIXES; verify the prefix in the TikTok developer portal (app → URL properties, ${TIKTOK_URL_PROPERTIES_PAGE}) and list it there.`,
    );
  }
}

/**
 * A creator posts videos up to their own limit (creator_info's max_video_post_duration_sec,
 * https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info), which may
 * have dropped since the post was scheduled: a stored video longer than that fails before any upload.
 */
function assertWithinCreatorDuration(media: MediaFacts | null, creatorMaxDurationSec: number | null): void {
  if (!media) return;
  const tooLong = checkMediaRules('tiktok', media, { items: 1, creatorMaxDurationSec }).find(
    (b) => b.rule === 'creator_duration',
  );
  if (tooLong)
    throw tiktokInvalidInput(
      'creator_duration',
      `${tooLong.message} Trim the video to that length, or post it from an account TikTok allows longer videos.`,
    );
}

/** Only a post for everyone goes through the moderation that withholds its id; others never get a public id. */
function isPublic(ctx: PublishContext): boolean {
  return metaFor(ctx.job.platformMeta, 'tiktok').privacyLevel === 'PUBLIC_TO_EVERYONE';
}

function postIdPendingWarning(publishId: string, waitedMs: number): PostWarning {
  const seconds = Math.round(waitedMs / 1000);
  const waited = seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.round(seconds / 60)} minutes`;
  return {
    code: 'tiktok_post_id_pending',
    message: `TikTok published the post but had not released its post id after ${waited} (it holds the id until its moderation ends), so the post has no permalink and its platform id is the publish_id ${publishId}; find the post on the TikTok profile.`,
  };
}
