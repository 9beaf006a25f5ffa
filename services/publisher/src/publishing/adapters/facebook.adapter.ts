import {
  MediaReader,
  PlatformError,
  detectMediaKinds,
  facebookInvalidInput,
  facebookReelPermalink,
  finishFacebookReel,
  getFacebookVideoStatus,
  probeMedia,
  publishFacebookFeed,
  publishFacebookPhoto,
  publishFacebookVideo,
  startFacebookReel,
  uploadFacebookPhoto,
  uploadFacebookReel,
  type MediaKind,
} from '@postbus/platforms';
import type { PostDue } from '@postbus/contracts';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import { published, type Checkpoint, type PlatformAdapter, type PublishContext, type StepResult } from './platform-adapter';

type FacebookKind = 'feed' | 'photo' | 'album' | 'video' | 'reel';

interface FacebookCheckpoint extends Checkpoint {
  kind?: FacebookKind;
  photoIds?: string[];
  videoId?: string;
  uploadUrl?: string;
  uploaded?: boolean;
  finished?: boolean;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]+/i;

/**
 * Facebook Pages: a text/link post, one photo, several photos (unpublished, then one feed post),
 * a Page video (file_url), or a reel (start → bytes streamed to rupload → finish → status).
 */
export function facebookAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext) => ({
    baseUrl: cfg.facebookApiUrl,
    accessToken: ctx.creds.accessToken,
    pageId: ctx.creds.platformUserId,
    timeoutMs: cfg.requestTimeoutMs,
  });
  const mediaRead = mediaOptions(cfg, 'facebook');

  async function kindOf(job: PostDue): Promise<FacebookKind> {
    const kinds: MediaKind[] = await detectMediaKinds(job.mediaUrls, mediaRead);
    if (kinds.length === 0) {
      if (!job.caption.trim()) throw facebookInvalidInput('missing_content', 'A Facebook post needs text, a link or media; add some.');
      return 'feed';
    }
    if (kinds.includes('video')) {
      if (kinds.length > 1) throw facebookInvalidInput('mixed_media', 'A Facebook post holds either photos or one video; publish the video on its own.');
      const meta = metaFor(job.platformMeta, 'facebook');
      return meta.reel === true || meta.mediaType === 'REELS' ? 'reel' : 'video';
    }
    return kinds.length === 1 ? 'photo' : 'album';
  }

  async function runReel(ctx: PublishContext, start: FacebookCheckpoint): Promise<StepResult> {
    let cp = start;
    const resumingUpload = !!start.videoId && !start.uploaded;
    if (!cp.videoId) {
      const { videoId, uploadUrl } = await startFacebookReel(api(ctx));
      cp = { ...cp, videoId, uploadUrl };
      ctx.progress(cp);
    }
    if (!cp.uploaded) {
      await uploadReelBytes(ctx, cp, resumingUpload);
      cp = { ...cp, uploaded: true };
      ctx.progress(cp);
    }
    if (!cp.finished) {
      await ctx.save({ ...cp, phase: 'publishing' });
      await finishFacebookReel(api(ctx), { videoId: cp.videoId!, description: ctx.job.caption });
      cp = { ...cp, finished: true };
      ctx.progress(cp);
    }
    const status = await getFacebookVideoStatus(api(ctx), cp.videoId!);
    if (status.videoStatus === 'error' || status.processing === 'error' || status.publishing === 'error') {
      throw new PlatformError('Facebook could not process the reel; use a vertical (9:16) H.264 MP4 of 3 to 90 seconds and publish again.', {
        platform: 'facebook',
        transient: false,
        code: 'video_processing_failed',
      });
    }
    if (status.publishing === 'complete') return published(cp.videoId!, facebookReelPermalink(cp.videoId!));
    return { kind: 'waiting', checkpoint: cp, what: 'Facebook was still processing the reel' };
  }

  /** Streams the media to rupload from where Facebook's upload phase stands (a retry resumes). */
  async function uploadReelBytes(ctx: PublishContext, cp: FacebookCheckpoint, resuming: boolean): Promise<void> {
    const url = ctx.job.mediaUrls[0];
    const { size } = await probeMedia(url, mediaRead);
    const offset = resuming ? await bytesTransferred(ctx, cp.videoId!) : 0;
    if (offset >= size) return;
    const reader = await MediaReader.open(url, offset, mediaRead);
    try {
      await uploadFacebookReel(api(ctx), { uploadUrl: cp.uploadUrl!, fileSize: size, offset, body: reader.chunk(size - offset), timeoutMs: cfg.uploadTimeoutMs, answerTimeoutMs: cfg.requestTimeoutMs });
    } finally {
      await reader.close();
    }
  }

  async function bytesTransferred(ctx: PublishContext, videoId: string): Promise<number> {
    const status = await getFacebookVideoStatus(api(ctx), videoId).catch(() => null);
    return status?.bytesTransferred ?? 0;
  }

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as FacebookCheckpoint;
      if (!cp.kind) {
        cp = { kind: await kindOf(ctx.job) };
        ctx.progress(cp);
      }
      const { caption, mediaUrls } = ctx.job;
      switch (cp.kind) {
        case 'reel':
          return runReel(ctx, cp);
        case 'feed': {
          await ctx.save({ ...cp, phase: 'publishing' });
          const r = await publishFacebookFeed(api(ctx), { message: caption, link: URL_IN_TEXT.exec(caption)?.[0] });
          return published(r.platformPostId, r.permalink);
        }
        case 'photo': {
          await ctx.save({ ...cp, phase: 'publishing' });
          const r = await publishFacebookPhoto(api(ctx), { url: mediaUrls[0], caption });
          return published(r.platformPostId, r.permalink);
        }
        case 'album': {
          const photoIds = [...(cp.photoIds ?? [])];
          for (const url of mediaUrls.slice(photoIds.length)) {
            photoIds.push(await uploadFacebookPhoto(api(ctx), url));
            ctx.progress({ ...cp, photoIds });
          }
          await ctx.save({ ...cp, photoIds, phase: 'publishing' });
          const r = await publishFacebookFeed(api(ctx), { message: caption, attachedPhotoIds: photoIds });
          return published(r.platformPostId, r.permalink);
        }
        default: {
          await ctx.save({ ...cp, phase: 'publishing' });
          const r = await publishFacebookVideo(api(ctx), { fileUrl: mediaUrls[0], description: caption, title: ctx.job.title ?? undefined });
          return published(r.platformPostId, r.permalink);
        }
      }
    },

    /** Only a reel can be asked about (its video's publishing phase); a feed, photo or video call that went unanswered cannot. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as FacebookCheckpoint;
      if (cp.kind !== 'reel' || !cp.videoId) return { kind: 'unknown' };
      const status = await getFacebookVideoStatus(api(ctx), cp.videoId);
      return { kind: 'continue', checkpoint: { ...withoutPhase(cp), finished: status.publishing !== null && status.publishing !== 'not_started' } };
    },

    rateBuckets: (job) => (metaFor(job.platformMeta, 'facebook').reel === true || metaFor(job.platformMeta, 'facebook').mediaType === 'REELS' ? ['facebook.reels'] : []),
  };
}
