import {
  PlatformError,
  createInstagramContainer,
  detectMediaKinds,
  findPublishedInstagramMedia,
  getInstagramContainerStatus,
  getInstagramPublishingQuota,
  instagramContainerFailure,
  planInstagramPost,
  publishInstagramContainer,
  type InstagramApiOptions,
} from '@postbus/platforms';
import { mediaOptions, metaFor, withoutPhase, type AdapterConfig } from './adapter-config';
import {
  published,
  type Published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface InstagramCheckpoint extends Checkpoint {
  children?: string[];
  containerId?: string;
  /** When the post's container was created (ms): its media went live after that. */
  containerCreatedAt?: number;
  video?: boolean;
}

/**
 * Instagram: publishing quota checked → container(s) (image, reel with cover/thumb_offset,
 * story, carousel) → FINISHED (checked, never slept on) → media_publish → permalink.
 */
export function instagramAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext) => ({
    baseUrl: cfg.instagramApiUrl,
    accessToken: ctx.creds.accessToken,
    userId: ctx.creds.platformUserId,
    timeoutMs: cfg.requestTimeoutMs,
  });

  async function createContainers(ctx: PublishContext): Promise<InstagramCheckpoint> {
    const meta = metaFor(ctx.job.platformMeta, 'instagram');
    const kinds = await detectMediaKinds(ctx.mediaUrls, mediaOptions(cfg, 'instagram'));
    const plan = planInstagramPost({
      caption: ctx.job.caption,
      mediaUrls: ctx.mediaUrls,
      kinds,
      story: meta.story === true || meta.mediaType === 'STORIES',
      coverUrl: typeof meta.coverUrl === 'string' ? meta.coverUrl : ctx.coverUrl,
      thumbOffsetMs: typeof meta.thumbOffsetMs === 'number' ? meta.thumbOffsetMs : undefined,
      shareToFeed: typeof meta.shareToFeed === 'boolean' ? meta.shareToFeed : undefined,
    });
    await assertQuotaLeft(api(ctx));
    const video = kinds.includes('video');
    if (plan.kind === 'single') {
      const containerCreatedAt = Date.now();
      return { containerId: await createInstagramContainer(api(ctx), plan.params), containerCreatedAt, video };
    }
    const children: string[] = [];
    for (const params of plan.children) children.push(await createInstagramContainer(api(ctx), params));
    return { children, video };
  }

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as InstagramCheckpoint;
      if (!cp.containerId && !cp.children) {
        cp = await createContainers(ctx);
        ctx.progress(cp);
      }
      if (!cp.containerId) {
        for (const containerId of cp.children!) {
          const child = await getInstagramContainerStatus({ ...api(ctx), containerId });
          if (child.status === 'ERROR' || child.status === 'EXPIRED') throw instagramContainerFailure(child);
          if (child.status === 'IN_PROGRESS') return { kind: 'waiting', checkpoint: cp, what: stillProcessing(cp) };
        }
        const caption = ctx.job.caption.trim() ? ctx.job.caption : undefined;
        const containerCreatedAt = Date.now();
        cp = {
          ...cp,
          containerCreatedAt,
          containerId: await createInstagramContainer(api(ctx), {
            media_type: 'CAROUSEL',
            children: cp.children!.join(','),
            caption,
          }),
        };
        ctx.progress(cp);
      }
      const state = await getInstagramContainerStatus({ ...api(ctx), containerId: cp.containerId! });
      if (state.status === 'ERROR' || state.status === 'EXPIRED') throw instagramContainerFailure(state);
      if (state.status === 'IN_PROGRESS') return { kind: 'waiting', checkpoint: cp, what: stillProcessing(cp) };
      if (state.status === 'PUBLISHED') return publishedFrom(api(ctx), ctx, cp);
      await ctx.save({ ...cp, phase: 'publishing' });
      const result = await publishInstagramContainer({ ...api(ctx), containerId: cp.containerId! });
      return published(result.platformPostId, result.permalink);
    },

    /** The container knows: PUBLISHED means live; the user's latest media tell under which media id. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as InstagramCheckpoint;
      if (!cp.containerId) return { kind: 'unknown' };
      const state = await getInstagramContainerStatus({ ...api(ctx), containerId: cp.containerId });
      if (state.status === 'PUBLISHED') return publishedFrom(api(ctx), ctx, cp);
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}

/**
 * A container found PUBLISHED after its publish answer was lost: Instagram does not say under
 * which media id, so the media is looked up among the user's latest by its caption (a first
 * comment goes on that id; a container's id takes none). A story is not on that list, and takes
 * no comments: its container's id stands in, as it does when nothing matches.
 */
async function publishedFrom(
  api: InstagramApiOptions & { userId: string },
  ctx: PublishContext,
  cp: InstagramCheckpoint,
): Promise<Published> {
  const meta = metaFor(ctx.job.platformMeta, 'instagram');
  if (meta.story === true || meta.mediaType === 'STORIES') return published(cp.containerId!, null);
  const found = await findPublishedInstagramMedia({
    ...api,
    caption: ctx.job.caption,
    containerCreatedAt: cp.containerCreatedAt,
  });
  return found ? published(found.platformPostId, found.permalink) : published(cp.containerId!, null);
}

const stillProcessing = (cp: InstagramCheckpoint) =>
  `Instagram was still processing the ${cp.video ? 'video' : 'media'}`;

/**
 * A full rolling window is a wait, not a failure: posts made through other tools use the same
 * quota, and a slot frees as the oldest of them leaves the window (`quota_duration` seconds,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/content_publishing_limit).
 */
async function assertQuotaLeft(api: Parameters<typeof getInstagramPublishingQuota>[0]): Promise<void> {
  const quota = await getInstagramPublishingQuota(api);
  if (quota && quota.usage >= quota.total) {
    throw new PlatformError(
      `This Instagram account has published ${quota.usage} of the ${quota.total} posts Instagram allows through apps in ${formatWindow(quota.durationS)}; publishing waits until a slot frees.`,
      {
        platform: 'instagram',
        transient: true,
        code: 'publishing_quota_reached',
        throttle: {
          kind: 'publishing_quota',
          scope: 'account',
          windowMs: quota.durationS * 1000,
          quotaTotal: quota.total,
        },
      },
    );
  }
}

/** 86400 → "24 hours", 90 → "90 seconds". */
function formatWindow(seconds: number): string {
  return seconds >= 3600 && seconds % 3600 === 0 ? `${seconds / 3600} hours` : `${seconds} seconds`;
}
