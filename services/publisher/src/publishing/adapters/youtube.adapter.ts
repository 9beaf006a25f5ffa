import {
  MediaReader,
  PlatformError,
  getYouTubeVideoStatus,
  isPlatformError,
  openYouTubeUpload,
  probeMedia,
  probeYouTubeUpload,
  putYouTubeChunk,
  setYouTubeThumbnail,
  youtubeInvalidInput,
  youtubeMetadata,
  youtubeUploadFailure,
  youtubeWatchUrl,
  type MediaFetchOptions,
  type YouTubePostSettings,
  type YouTubeUploadState,
  type YouTubeVideoStatus,
} from '@postbus/platforms';
import type { Logger } from '@postbus/kit';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type Resolution,
  type StepResult,
} from './platform-adapter';
import { isPrivateLocked, privateLockReason, privateLockWarning, type YouTubePrivacy } from './youtube-private-lock';

interface YouTubeCheckpoint extends Checkpoint {
  sessionUrl?: string;
  size?: number;
  contentType?: string;
  videoId?: string;
  /** The privacy the upload asked for (YouTube may keep the video private instead). */
  asked?: YouTubePrivacy;
}

type Uploaded = Extract<YouTubeUploadState, { kind: 'complete' }>;

/** Server errors one upload run rides out by probing and resuming before it gives up to the retry schedule. */
const MAX_RESUMES = 3;

/**
 * YouTube: videos.insert as a resumable upload streamed from the media URL in chunks
 * (308 + Range tells where to resume; a 5xx is followed by a `*\/total` probe), then the
 * thumbnail from platformMeta.youtube.thumbnailUrl, else the cover frame Postbus made (normalize).
 */
export function youtubeAdapter(cfg: AdapterConfig, logger: Logger): PlatformAdapter {
  return new YouTubeAdapter(cfg, logger);
}

class YouTubeAdapter implements PlatformAdapter {
  private readonly mediaRead: MediaFetchOptions;

  constructor(
    private readonly cfg: AdapterConfig,
    private readonly logger: Logger,
  ) {
    this.mediaRead = mediaOptions(cfg, 'youtube');
  }

  async run(ctx: PublishContext): Promise<StepResult> {
    let cp = ctx.checkpoint as YouTubeCheckpoint;
    let answered: YouTubeVideoStatus | undefined;
    if (!cp.videoId) ({ cp, answered } = await this.uploadVideo(ctx, cp));
    const videoId = cp.videoId!;
    const status = await this.statusOf(ctx, videoId, answered);
    const failure = status && youtubeUploadFailure(status, videoId);
    if (failure) throw failure;
    const asked =
      cp.asked ??
      ((metaFor(ctx.job.platformMeta, 'youtube') as YouTubePostSettings).privacyStatus as YouTubePrivacy | undefined) ??
      this.cfg.youtubeDefaultPrivacy;
    const locked = isPrivateLocked(asked, status, this.cfg.youtubeProjectAudited);
    if (locked && this.cfg.youtubePrivateLock === 'fail')
      throw youtubeInvalidInput('youtube_private_lock', privateLockReason(asked, videoId));
    await this.setThumbnail(ctx, videoId);
    return published(videoId, youtubeWatchUrl(videoId), locked ? [privateLockWarning(asked)] : undefined);
  }

  /** The upload session knows: complete (with the video), incomplete (resume), or gone (nothing was published; start over). */
  async resolve(ctx: PublishContext): Promise<Resolution> {
    const cp = ctx.checkpoint as YouTubeCheckpoint;
    if (!cp.sessionUrl) return { kind: 'unknown' };
    const state = await probeYouTubeUpload(this.api(ctx), { sessionUrl: cp.sessionUrl, total: cp.size! });
    if (state.kind === 'expired') return { kind: 'continue', checkpoint: {} };
    if (state.kind === 'complete')
      return { kind: 'continue', checkpoint: { ...withoutPhase(cp), videoId: state.videoId } };
    return { kind: 'continue', checkpoint: withoutPhase(cp) };
  }

  private api(ctx: PublishContext) {
    return {
      uploadBaseUrl: this.cfg.youtubeUploadUrl,
      accessToken: ctx.creds.accessToken,
      timeoutMs: this.cfg.requestTimeoutMs,
    };
  }

  /** Opens the upload session (or finds where an earlier one stands) and sends the rest; answers the checkpoint with the video, and its status when YouTube sent it. */
  private async uploadVideo(
    ctx: PublishContext,
    start: YouTubeCheckpoint,
  ): Promise<{ cp: YouTubeCheckpoint; answered?: YouTubeVideoStatus }> {
    let cp = start;
    let answered: YouTubeVideoStatus | undefined;
    let offset = 0;
    if (!cp.sessionUrl) {
      cp = await this.openSession(ctx);
      await ctx.save({ ...cp, phase: 'publishing' });
    } else {
      const state = await probeYouTubeUpload(this.api(ctx), { sessionUrl: cp.sessionUrl, total: cp.size! });
      if (state.kind === 'expired') {
        await ctx.save({});
        throw expiredSession();
      }
      if (state.kind === 'complete') {
        cp = { ...cp, videoId: state.videoId };
        answered = state.status;
      } else offset = state.received;
      await ctx.save({ ...cp, phase: 'publishing' });
    }
    if (!cp.videoId) {
      const uploaded = await this.upload(ctx, cp, offset);
      cp = { ...cp, videoId: uploaded.videoId };
      answered = uploaded.status;
    }
    await ctx.save(withoutPhase(cp));
    return { cp, answered };
  }

  private async openSession(ctx: PublishContext): Promise<YouTubeCheckpoint> {
    const { job } = ctx;
    const { cfg } = this;
    if (ctx.mediaUrls.length !== 1)
      throw youtubeInvalidInput(
        'invalid_media',
        'A YouTube post needs exactly one video; attach one video to the post.',
      );
    const settings = metaFor(job.platformMeta, 'youtube') as YouTubePostSettings;
    const metadata = youtubeMetadata({ title: job.title, caption: job.caption }, settings, cfg.youtubeDefaultPrivacy);
    const asked = metadata.status.privacyStatus;
    // An unaudited project's upload would only be private: with YOUTUBE_PRIVATE_LOCK=fail, nothing is uploaded.
    if (cfg.youtubePrivateLock === 'fail' && isPrivateLocked(asked, null, cfg.youtubeProjectAudited))
      throw youtubeInvalidInput('youtube_private_lock', privateLockReason(asked));
    const media = await probeMedia(ctx.mediaUrls[0], this.mediaRead);
    const contentType = media.contentType.startsWith('video/') ? media.contentType : 'application/octet-stream';
    const sessionUrl = await openYouTubeUpload(this.api(ctx), { metadata, size: media.size, contentType });
    return { sessionUrl, size: media.size, contentType, asked };
  }

  /** Sends the bytes from `offset`; answers the video (id, and status when YouTube sent it) once YouTube holds the whole file. */
  private async upload(ctx: PublishContext, cp: YouTubeCheckpoint, offset: number): Promise<Uploaded> {
    const { cfg } = this;
    const size = cp.size!;
    let at = offset;
    let resumes = 0;
    let reader = await MediaReader.open(ctx.mediaUrls[0], at, this.mediaRead);
    try {
      for (;;) {
        const last = Math.min(size, at + cfg.youtubeChunkBytes) - 1;
        let state: YouTubeUploadState;
        let broken = false;
        try {
          state = await putYouTubeChunk(this.api(ctx), {
            sessionUrl: cp.sessionUrl!,
            first: at,
            last,
            total: size,
            contentType: cp.contentType!,
            body: reader.chunk(last - at + 1),
            timeoutMs: cfg.uploadTimeoutMs,
            answerTimeoutMs: cfg.requestTimeoutMs,
          });
        } catch (err) {
          if (!(isPlatformError(err) && err.transient && !err.tokenRejected) || ++resumes > MAX_RESUMES) throw err;
          state = await probeYouTubeUpload(this.api(ctx), { sessionUrl: cp.sessionUrl!, total: size });
          broken = true;
        }
        if (state.kind === 'complete') return state;
        if (state.kind === 'expired') throw expiredSession();
        if (broken || state.received !== last + 1) {
          // YouTube kept less than was sent (or a probe after an error): resume from what it holds.
          await reader.close();
          reader = await MediaReader.open(ctx.mediaUrls[0], state.received, this.mediaRead);
        }
        at = state.received;
      }
    } finally {
      await reader.close();
    }
  }

  private async setThumbnail(ctx: PublishContext, videoId: string): Promise<void> {
    const given = metaFor(ctx.job.platformMeta, 'youtube').thumbnailUrl;
    const url = typeof given === 'string' && given ? given : ctx.coverUrl;
    if (!url) return;
    try {
      const image = await probeMedia(url, this.mediaRead);
      const reader = await MediaReader.open(url, 0, this.mediaRead);
      try {
        await setYouTubeThumbnail(this.api(ctx), {
          videoId,
          size: image.size,
          contentType: image.contentType,
          body: reader.chunk(image.size),
        });
      } finally {
        await reader.close();
      }
    } catch (err) {
      // The video is live; a missing custom thumbnail must not turn the post into a failure.
      this.logger.warn('youtube thumbnail not set', { postId: ctx.job.postId, reason: (err as Error).message });
    }
  }

  /**
   * The video's status as YouTube answered the upload, else one videos.list; a status that cannot be
   * read leaves the upload standing (the video is on YouTube; a failed read must not fail the post).
   */
  private async statusOf(
    ctx: PublishContext,
    videoId: string,
    answered: YouTubeVideoStatus | undefined,
  ): Promise<YouTubeVideoStatus | null> {
    if (answered) return answered;
    try {
      return await getYouTubeVideoStatus(
        { apiUrl: this.cfg.youtubeApiUrl, accessToken: ctx.creds.accessToken, timeoutMs: this.cfg.requestTimeoutMs },
        videoId,
      );
    } catch (err) {
      this.logger.warn('youtube video status not read', { postId: ctx.job.postId, reason: (err as Error).message });
      return null;
    }
  }
}

function expiredSession(): PlatformError {
  return new PlatformError(
    'The YouTube upload session expired before the video was complete; the upload will start over.',
    {
      platform: 'youtube',
      transient: true,
      code: 'upload_session_expired',
    },
  );
}
