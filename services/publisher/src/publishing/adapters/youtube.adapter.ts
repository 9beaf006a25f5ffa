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
  type YouTubePostSettings,
  type YouTubeUploadState,
  type YouTubeVideoStatus,
} from '@postbus/platforms';
import type { Logger } from '@postbus/kit';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import { published, type Checkpoint, type PlatformAdapter, type PublishContext, type StepResult } from './platform-adapter';
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
 * thumbnail from platformMeta.youtube.thumbnailUrl.
 */
export function youtubeAdapter(cfg: AdapterConfig, logger: Logger): PlatformAdapter {
  const api = (ctx: PublishContext) => ({ uploadBaseUrl: cfg.youtubeUploadUrl, accessToken: ctx.creds.accessToken, timeoutMs: cfg.requestTimeoutMs });
  const mediaRead = mediaOptions(cfg, 'youtube');

  async function openSession(ctx: PublishContext): Promise<YouTubeCheckpoint> {
    const { job } = ctx;
    if (job.mediaUrls.length !== 1) throw youtubeInvalidInput('invalid_media', 'A YouTube post needs exactly one video; attach one video to the post.');
    const settings = metaFor(job.platformMeta, 'youtube') as YouTubePostSettings;
    const metadata = youtubeMetadata({ title: job.title, caption: job.caption }, settings, cfg.youtubeDefaultPrivacy);
    const asked = metadata.status.privacyStatus;
    // An unaudited project's upload would only be private: with YOUTUBE_PRIVATE_LOCK=fail, nothing is uploaded.
    if (cfg.youtubePrivateLock === 'fail' && isPrivateLocked(asked, null, cfg.youtubeProjectAudited)) throw youtubeInvalidInput('youtube_private_lock', privateLockReason(asked));
    const media = await probeMedia(job.mediaUrls[0], mediaRead);
    const contentType = media.contentType.startsWith('video/') ? media.contentType : 'application/octet-stream';
    const sessionUrl = await openYouTubeUpload(api(ctx), { metadata, size: media.size, contentType });
    return { sessionUrl, size: media.size, contentType, asked };
  }

  /** Sends the bytes from `offset`; answers the video (id, and status when YouTube sent it) once YouTube holds the whole file. */
  async function upload(ctx: PublishContext, cp: YouTubeCheckpoint, offset: number): Promise<Uploaded> {
    const size = cp.size!;
    let at = offset;
    let resumes = 0;
    let reader = await MediaReader.open(ctx.job.mediaUrls[0], at, mediaRead);
    try {
      for (;;) {
        const last = Math.min(size, at + cfg.youtubeChunkBytes) - 1;
        let state: YouTubeUploadState;
        let broken = false;
        try {
          state = await putYouTubeChunk(api(ctx), { sessionUrl: cp.sessionUrl!, first: at, last, total: size, contentType: cp.contentType!, body: reader.chunk(last - at + 1), timeoutMs: cfg.uploadTimeoutMs, answerTimeoutMs: cfg.requestTimeoutMs });
        } catch (err) {
          if (!(isPlatformError(err) && err.transient && !err.tokenRejected) || ++resumes > MAX_RESUMES) throw err;
          state = await probeYouTubeUpload(api(ctx), { sessionUrl: cp.sessionUrl!, total: size });
          broken = true;
        }
        if (state.kind === 'complete') return state;
        if (state.kind === 'expired') throw expiredSession();
        if (broken || state.received !== last + 1) {
          // YouTube kept less than was sent (or a probe after an error): resume from what it holds.
          await reader.close();
          reader = await MediaReader.open(ctx.job.mediaUrls[0], state.received, mediaRead);
        }
        at = state.received;
      }
    } finally {
      await reader.close();
    }
  }

  async function setThumbnail(ctx: PublishContext, videoId: string): Promise<void> {
    const url = metaFor(ctx.job.platformMeta, 'youtube').thumbnailUrl;
    if (typeof url !== 'string' || !url) return;
    try {
      const image = await probeMedia(url, mediaRead);
      const reader = await MediaReader.open(url, 0, mediaRead);
      try {
        await setYouTubeThumbnail(api(ctx), { videoId, size: image.size, contentType: image.contentType, body: reader.chunk(image.size) });
      } finally {
        await reader.close();
      }
    } catch (err) {
      // The video is live; a missing custom thumbnail must not turn the post into a failure.
      logger.warn('youtube thumbnail not set', { postId: ctx.job.postId, reason: (err as Error).message });
    }
  }

  /**
   * The video's status as YouTube answered the upload, else one videos.list; a status that cannot be
   * read leaves the upload standing (the video is on YouTube; a failed read must not fail the post).
   */
  async function statusOf(ctx: PublishContext, videoId: string, answered: YouTubeVideoStatus | undefined): Promise<YouTubeVideoStatus | null> {
    if (answered) return answered;
    try {
      return await getYouTubeVideoStatus({ apiUrl: cfg.youtubeApiUrl, accessToken: ctx.creds.accessToken, timeoutMs: cfg.requestTimeoutMs }, videoId);
    } catch (err) {
      logger.warn('youtube video status not read', { postId: ctx.job.postId, reason: (err as Error).message });
      return null;
    }
  }

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as YouTubeCheckpoint;
      let answered: YouTubeVideoStatus | undefined;
      if (!cp.videoId) {
        let offset = 0;
        if (!cp.sessionUrl) {
          cp = await openSession(ctx);
          await ctx.save({ ...cp, phase: 'publishing' });
        } else {
          const state = await probeYouTubeUpload(api(ctx), { sessionUrl: cp.sessionUrl, total: cp.size! });
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
          const uploaded = await upload(ctx, cp, offset);
          cp = { ...cp, videoId: uploaded.videoId };
          answered = uploaded.status;
        }
        await ctx.save(withoutPhase(cp));
      }
      const videoId = cp.videoId!;
      const status = await statusOf(ctx, videoId, answered);
      const failure = status && youtubeUploadFailure(status, videoId);
      if (failure) throw failure;
      const asked = cp.asked ?? (((metaFor(ctx.job.platformMeta, 'youtube') as YouTubePostSettings).privacyStatus as YouTubePrivacy | undefined) ?? cfg.youtubeDefaultPrivacy);
      const locked = isPrivateLocked(asked, status, cfg.youtubeProjectAudited);
      if (locked && cfg.youtubePrivateLock === 'fail') throw youtubeInvalidInput('youtube_private_lock', privateLockReason(asked, videoId));
      await setThumbnail(ctx, videoId);
      return published(videoId, youtubeWatchUrl(videoId), locked ? [privateLockWarning(asked)] : undefined);
    },

    /** The upload session knows: complete (with the video), incomplete (resume), or gone (nothing was published; start over). */
    async resolve(ctx) {
      const cp = ctx.checkpoint as YouTubeCheckpoint;
      if (!cp.sessionUrl) return { kind: 'unknown' };
      const state = await probeYouTubeUpload(api(ctx), { sessionUrl: cp.sessionUrl, total: cp.size! });
      if (state.kind === 'expired') return { kind: 'continue', checkpoint: {} };
      if (state.kind === 'complete') return { kind: 'continue', checkpoint: { ...withoutPhase(cp), videoId: state.videoId } };
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}

function expiredSession(): PlatformError {
  return new PlatformError('The YouTube upload session expired before the video was complete; the upload will start over.', {
    platform: 'youtube',
    transient: true,
    code: 'upload_session_expired',
  });
}
