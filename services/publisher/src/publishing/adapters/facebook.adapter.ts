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
  type FacebookThumb,
  type MediaFetchOptions,
  type MediaKind,
} from '@postbus/platforms';
import type { PostDue } from '@postbus/contracts';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type Resolution,
  type StepResult,
} from './platform-adapter';

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
/** The largest video thumbnail Facebook takes: https://developers.facebook.com/docs/graph-api/reference/video/thumbnails/ */
const FACEBOOK_THUMB_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Facebook Pages: a text/link post, one photo, several photos (unpublished, then one feed post),
 * a Page video (file_url), or a reel (start → bytes streamed to rupload → finish → status).
 */
export function facebookAdapter(cfg: AdapterConfig): PlatformAdapter {
  return new FacebookAdapter(cfg);
}

class FacebookAdapter implements PlatformAdapter {
  private readonly mediaRead: MediaFetchOptions;

  constructor(private readonly cfg: AdapterConfig) {
    this.mediaRead = mediaOptions(cfg, 'facebook');
  }

  async run(ctx: PublishContext): Promise<StepResult> {
    let cp = ctx.checkpoint as FacebookCheckpoint;
    if (!cp.kind) {
      cp = { kind: await this.kindOf(ctx) };
      ctx.progress(cp);
    }
    const { caption } = ctx.job;
    const { mediaUrls } = ctx;
    switch (cp.kind) {
      case 'reel':
        return this.runReel(ctx, cp);
      case 'feed': {
        await ctx.save({ ...cp, phase: 'publishing' });
        const r = await publishFacebookFeed(this.api(ctx), { message: caption, link: URL_IN_TEXT.exec(caption)?.[0] });
        return published(r.platformPostId, r.permalink);
      }
      case 'photo': {
        await ctx.save({ ...cp, phase: 'publishing' });
        const r = await publishFacebookPhoto(this.api(ctx), { url: mediaUrls[0], caption });
        return published(r.platformPostId, r.permalink);
      }
      case 'album':
        return this.runAlbum(ctx, cp);
      default: {
        const thumb = await this.thumbOf(ctx);
        await ctx.save({ ...cp, phase: 'publishing' });
        // https://developers.facebook.com/docs/graph-api/reference/page/videos/#Creating: file_url, description, title, thumb.
        const r = await publishFacebookVideo(this.api(ctx), {
          fileUrl: mediaUrls[0],
          description: caption,
          title: ctx.job.title ?? undefined,
          thumb,
        });
        return published(r.platformPostId, r.permalink);
      }
    }
  }

  /** Only a reel can be asked about (its video's publishing phase); a feed, photo or video call that went unanswered cannot. */
  async resolve(ctx: PublishContext): Promise<Resolution> {
    const cp = ctx.checkpoint as FacebookCheckpoint;
    if (cp.kind !== 'reel' || !cp.videoId) return { kind: 'unknown' };
    const status = await getFacebookVideoStatus(this.api(ctx), cp.videoId);
    return {
      kind: 'continue',
      checkpoint: { ...withoutPhase(cp), finished: status.publishing !== null && status.publishing !== 'not_started' },
    };
  }

  rateBuckets(job: PostDue): string[] {
    return metaFor(job.platformMeta, 'facebook').reel === true ||
      metaFor(job.platformMeta, 'facebook').mediaType === 'REELS'
      ? ['facebook.reels']
      : [];
  }

  private api(ctx: PublishContext) {
    return {
      baseUrl: this.cfg.facebookApiUrl,
      accessToken: ctx.creds.accessToken,
      pageId: ctx.creds.platformUserId,
      timeoutMs: this.cfg.requestTimeoutMs,
    };
  }

  private async kindOf(ctx: PublishContext): Promise<FacebookKind> {
    const { job } = ctx;
    const kinds: MediaKind[] = await detectMediaKinds(ctx.mediaUrls, this.mediaRead);
    if (kinds.length === 0) {
      if (!job.caption.trim())
        throw facebookInvalidInput('missing_content', 'A Facebook post needs text, a link or media; add some.');
      return 'feed';
    }
    if (kinds.includes('video')) {
      if (kinds.length > 1)
        throw facebookInvalidInput(
          'mixed_media',
          'A Facebook post holds either photos or one video; publish the video on its own.',
        );
      const meta = metaFor(job.platformMeta, 'facebook');
      return meta.reel === true || meta.mediaType === 'REELS' ? 'reel' : 'video';
    }
    return kinds.length === 1 ? 'photo' : 'album';
  }

  /**
   * A Page video's custom thumbnail: the post's own cover (platformMeta.facebook.coverUrl), else the
   * cover frame made for it, read whole when it is an image of at most 10 MB (Facebook's thumbnail
   * limit, https://developers.facebook.com/docs/graph-api/reference/video/thumbnails/). A cover that
   * cannot be read is left out, Facebook picking a frame itself: it never fails the post. Reels take
   * no thumbnail parameter (https://developers.facebook.com/docs/video-api/guides/reels-publishing).
   */
  private async thumbOf(ctx: PublishContext): Promise<FacebookThumb | undefined> {
    const given = metaFor(ctx.job.platformMeta, 'facebook').coverUrl;
    const url = typeof given === 'string' && given ? given : ctx.coverUrl;
    if (!url) return undefined;
    try {
      const image = await probeMedia(url, this.mediaRead);
      if (!image.contentType.startsWith('image/') || image.size > FACEBOOK_THUMB_MAX_BYTES) return undefined;
      const reader = await MediaReader.open(url, 0, this.mediaRead);
      try {
        const bytes = new Uint8Array(await new Response(reader.chunk(image.size)).arrayBuffer());
        return { bytes, contentType: image.contentType };
      } finally {
        await reader.close();
      }
    } catch {
      return undefined;
    }
  }

  /** Photos uploaded unpublished (one at a time, so a retry goes on from the last), then one feed post holding them. */
  private async runAlbum(ctx: PublishContext, cp: FacebookCheckpoint): Promise<StepResult> {
    const photoIds = [...(cp.photoIds ?? [])];
    for (const url of ctx.mediaUrls.slice(photoIds.length)) {
      photoIds.push(await uploadFacebookPhoto(this.api(ctx), url));
      ctx.progress({ ...cp, photoIds });
    }
    await ctx.save({ ...cp, photoIds, phase: 'publishing' });
    const r = await publishFacebookFeed(this.api(ctx), { message: ctx.job.caption, attachedPhotoIds: photoIds });
    return published(r.platformPostId, r.permalink);
  }

  private async runReel(ctx: PublishContext, start: FacebookCheckpoint): Promise<StepResult> {
    let cp = start;
    const resumingUpload = !!start.videoId && !start.uploaded;
    if (!cp.videoId) {
      const { videoId, uploadUrl } = await startFacebookReel(this.api(ctx));
      cp = { ...cp, videoId, uploadUrl };
      ctx.progress(cp);
    }
    if (!cp.uploaded) {
      await this.uploadReelBytes(ctx, cp, resumingUpload);
      cp = { ...cp, uploaded: true };
      ctx.progress(cp);
    }
    if (!cp.finished) {
      await ctx.save({ ...cp, phase: 'publishing' });
      await finishFacebookReel(this.api(ctx), { videoId: cp.videoId!, description: ctx.job.caption });
      cp = { ...cp, finished: true };
      ctx.progress(cp);
    }
    const status = await getFacebookVideoStatus(this.api(ctx), cp.videoId!);
    if (status.videoStatus === 'error' || status.processing === 'error' || status.publishing === 'error') {
      throw new PlatformError(
        'Facebook could not process the reel; use a vertical (9:16) H.264 MP4 of 3 to 90 seconds and publish again.',
        {
          platform: 'facebook',
          transient: false,
          code: 'video_processing_failed',
        },
      );
    }
    if (status.publishing === 'complete') return published(cp.videoId!, facebookReelPermalink(cp.videoId!));
    return { kind: 'waiting', checkpoint: cp, what: 'Facebook was still processing the reel' };
  }

  /** Streams the media to rupload from where Facebook's upload phase stands (a retry resumes). */
  private async uploadReelBytes(ctx: PublishContext, cp: FacebookCheckpoint, resuming: boolean): Promise<void> {
    const url = ctx.mediaUrls[0];
    const { size } = await probeMedia(url, this.mediaRead);
    const offset = resuming ? await this.bytesTransferred(ctx, cp.videoId!) : 0;
    if (offset >= size) return;
    const reader = await MediaReader.open(url, offset, this.mediaRead);
    try {
      await uploadFacebookReel(this.api(ctx), {
        uploadUrl: cp.uploadUrl!,
        fileSize: size,
        offset,
        body: reader.chunk(size - offset),
        timeoutMs: this.cfg.uploadTimeoutMs,
        answerTimeoutMs: this.cfg.requestTimeoutMs,
      });
    } finally {
      await reader.close();
    }
  }

  private async bytesTransferred(ctx: PublishContext, videoId: string): Promise<number> {
    const status = await getFacebookVideoStatus(this.api(ctx), videoId).catch(() => null);
    return status?.bytesTransferred ?? 0;
  }
}
