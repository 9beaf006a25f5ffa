import {
  THREADS_CAROUSEL_MAX,
  THREADS_TEXT_MAX,
  createThreadsContainer,
  detectMediaKinds,
  findPublishedThread,
  getThreadsContainerStatus,
  publishThreadsContainer,
  threadsContainerFailure,
  threadsInvalidInput,
  threadsMediaParams,
  threadsTextLength,
  threadsTextTooLong,
  threadsTooManyMedia,
  type ThreadsApiOptions,
} from '@postbus/platforms';
import type { AdapterConfig } from './adapter-config';
import { mediaOptions, withoutPhase } from './adapter-config';
import {
  published,
  type Published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface ThreadsCheckpoint extends Checkpoint {
  children?: string[];
  containerId?: string;
  /** When the post's container was created (ms): its post went live after that. */
  containerCreatedAt?: number;
}

/** Threads: TEXT, IMAGE, VIDEO or CAROUSEL container → FINISHED (checked, never slept on) → threads_publish → permalink. */
export function threadsAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext) => threadsApi(cfg, ctx);

  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as ThreadsCheckpoint;
      if (!cp.containerId && !cp.children) {
        cp = await createContainers(cfg, ctx);
        ctx.progress(cp);
      }
      if (!cp.containerId) {
        if (!(await carouselItemsReady(cfg, ctx, cp.children!)))
          return { kind: 'waiting', checkpoint: cp, what: 'Threads was still processing the carousel media' };
        const containerCreatedAt = Date.now();
        cp = { ...cp, containerId: await createCarouselContainer(cfg, ctx, cp.children!), containerCreatedAt };
        ctx.progress(cp);
      }
      const state = await getThreadsContainerStatus({ ...api(ctx), containerId: cp.containerId! });
      if (state.status === 'ERROR' || state.status === 'EXPIRED')
        throw threadsContainerFailure(state.status, state.errorMessage, cp.containerId!);
      if (state.status === 'IN_PROGRESS')
        return { kind: 'waiting', checkpoint: cp, what: 'Threads was still processing the media' };
      if (state.status === 'PUBLISHED') return publishedFrom(cfg, ctx, cp);
      await ctx.save({ ...cp, phase: 'publishing' });
      const { platformPostId, permalink } = await publishThreadsContainer({
        ...api(ctx),
        containerId: cp.containerId!,
      });
      return published(platformPostId, permalink);
    },

    /** The container knows: PUBLISHED means live; the user's latest posts tell under which media id. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as ThreadsCheckpoint;
      if (!cp.containerId) return { kind: 'unknown' };
      const state = await getThreadsContainerStatus({ ...api(ctx), containerId: cp.containerId });
      if (state.status === 'PUBLISHED') return publishedFrom(cfg, ctx, cp);
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}

function threadsApi(cfg: AdapterConfig, ctx: PublishContext): ThreadsApiOptions & { userId: string } {
  return {
    baseUrl: cfg.threadsApiUrl,
    accessToken: ctx.creds.accessToken,
    userId: ctx.creds.platformUserId,
    timeoutMs: cfg.requestTimeoutMs,
  };
}

/**
 * A container found PUBLISHED after its publish answer was lost: Threads does not say under which
 * media id, so the post is looked up among the user's latest by its text (first comments and
 * chain parts reply to that id). When none matches, the container's id stands in.
 */
async function publishedFrom(cfg: AdapterConfig, ctx: PublishContext, cp: ThreadsCheckpoint): Promise<Published> {
  const found = await findPublishedThread({
    ...threadsApi(cfg, ctx),
    text: ctx.job.caption,
    containerCreatedAt: cp.containerCreatedAt,
  });
  return found ? published(found.platformPostId, found.permalink) : published(cp.containerId!, null);
}

/** The post's containers, after the checks Threads would fail it on: one TEXT/IMAGE/VIDEO container, or the carousel's items. */
async function createContainers(cfg: AdapterConfig, ctx: PublishContext): Promise<ThreadsCheckpoint> {
  const { caption } = ctx.job;
  const { mediaUrls } = ctx;
  const length = threadsTextLength(caption);
  if (length > THREADS_TEXT_MAX) throw threadsTextTooLong(length);
  if (mediaUrls.length > THREADS_CAROUSEL_MAX) throw threadsTooManyMedia(mediaUrls.length);
  if (!caption.trim() && mediaUrls.length === 0)
    throw threadsInvalidInput('missing_content', 'A Threads post needs text or at least one image or video; add some.');
  const text = caption.trim() ? caption : undefined;
  const kinds = await detectMediaKinds(mediaUrls, mediaOptions(cfg, 'threads'));
  if (mediaUrls.length <= 1) {
    const params = mediaUrls.length
      ? { ...threadsMediaParams(mediaUrls[0], kinds[0]), text }
      : { media_type: 'TEXT', text };
    const containerCreatedAt = Date.now();
    return { containerId: await createThreadsContainer(threadsApi(cfg, ctx), params), containerCreatedAt };
  }
  const children: string[] = [];
  for (const [i, url] of mediaUrls.entries())
    children.push(
      await createThreadsContainer(threadsApi(cfg, ctx), {
        ...threadsMediaParams(url, kinds[i]),
        is_carousel_item: 'true',
      }),
    );
  return { children };
}

/** Whether every carousel item is FINISHED; a failed or expired item fails the post. */
async function carouselItemsReady(cfg: AdapterConfig, ctx: PublishContext, children: string[]): Promise<boolean> {
  for (const containerId of children) {
    const child = await getThreadsContainerStatus({ ...threadsApi(cfg, ctx), containerId });
    if (child.status === 'ERROR' || child.status === 'EXPIRED')
      throw threadsContainerFailure(child.status, child.errorMessage, containerId);
    if (child.status === 'IN_PROGRESS') return false;
  }
  return true;
}

async function createCarouselContainer(cfg: AdapterConfig, ctx: PublishContext, children: string[]): Promise<string> {
  const text = ctx.job.caption.trim() ? ctx.job.caption : undefined;
  return createThreadsContainer(threadsApi(cfg, ctx), { media_type: 'CAROUSEL', children: children.join(','), text });
}
