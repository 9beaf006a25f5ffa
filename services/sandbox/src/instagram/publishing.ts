import { GraphError, invalidParameter } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { instagramContainerStatus } from './containers';
import type { InstagramContainer, InstagramMedia } from './store';

/**
 * `POST /{ig-user-id}/media_publish?creation_id=`: a FINISHED container goes live exactly once.
 *
 * - unknown container → code 24 / 2207008 (not found or not ready);
 * - still IN_PROGRESS → code 9007 / 2207027 "not ready to publish";
 * - ERROR → the container's own code/subcode; EXPIRED → code -2 / 2207020; a carousel item alone → code 100;
 * - already PUBLISHED → code 100 "already been published" (sandbox choice; clients ask the container's status);
 * - over the rolling quota → code 9 / 2207042.
 */
export function publishInstagramContainer(
  state: SandboxState,
  user: SandboxUser,
  creationId: string | undefined,
): InstagramMedia {
  const container = publishableContainer(state, user, creationId);
  const now = state.now();
  assertUnderQuota(state, user, now);
  const media = mediaOf(state, user, container, now);
  state.instagram.media.set(media.id, media);
  container.publishedMediaId = media.id;
  recordPublished(state, user, container, media, now);
  return media;
}

/** The user's container named by creation_id, when it is FINISHED and may go live on its own. */
function publishableContainer(
  state: SandboxState,
  user: SandboxUser,
  creationId: string | undefined,
): InstagramContainer {
  if (!creationId) throw invalidParameter('The parameter creation_id is required.');
  const container = state.instagram.containers.get(creationId);
  if (!container || container.userId !== user.userId) {
    throw new GraphError(400, 24, 'The requested resource does not exist', {
      subcode: 2207008,
      userTitle: 'Media ID is not available',
    });
  }
  const { status, error } = instagramContainerStatus(state, container);
  if (status === 'IN_PROGRESS') {
    throw new GraphError(400, 9007, 'Media ID is not available', {
      subcode: 2207027,
      userTitle: 'Media not ready for publishing',
      userMsg: 'The media is not ready for publishing, please wait for a moment.',
    });
  }
  if (status === 'PUBLISHED') throw invalidParameter(`The media container ${creationId} has already been published.`);
  if (status === 'EXPIRED')
    throw new GraphError(400, -2, 'The media container has expired.', { subcode: 2207020, userTitle: 'Media expired' });
  if (status === 'ERROR') {
    const [code, subcode] = (error ?? '-1/2207001').split('/').map(Number);
    throw new GraphError(400, code, 'The media could not be processed.', { subcode, isTransient: false });
  }
  if (container.isCarouselItem)
    throw invalidParameter('A carousel item cannot be published on its own; publish its CAROUSEL container.');
  return container;
}

function assertUnderQuota(state: SandboxState, user: SandboxUser, now: number): void {
  const { quotaTotal } = state.instagram.limits;
  if (state.instagram.publishedInWindow(user.userId, now) >= quotaTotal) {
    throw new GraphError(400, 9, 'Application request limit reached', {
      subcode: 2207042,
      userTitle: 'Maximum number of posts reached',
      userMsg: `You reached the maximum of ${quotaTotal} posts that can be published through the API in 24 hours.`,
    });
  }
}

/** The live media a container becomes: stories, reels and feed posts each have their own permalink shape. */
function mediaOf(state: SandboxState, user: SandboxUser, container: InstagramContainer, now: number): InstagramMedia {
  const shortcode = state.ids.shortcode();
  const id = state.ids.numeric();
  const productType = container.mediaType === 'STORIES' ? 'STORY' : container.mediaType === 'REELS' ? 'REELS' : 'FEED';
  return {
    id,
    userId: user.userId,
    username: user.handle,
    containerId: container.id,
    mediaType: container.mediaType,
    productType,
    caption: container.caption,
    mediaUrls: mediaUrlsOf(state, container),
    shortcode,
    permalink:
      productType === 'STORY'
        ? `https://www.instagram.com/stories/${user.handle}/${id}/`
        : `https://www.instagram.com/${productType === 'REELS' ? 'reel' : 'p'}/${shortcode}/`,
    publishedAt: now,
  };
}

function recordPublished(
  state: SandboxState,
  user: SandboxUser,
  container: InstagramContainer,
  media: InstagramMedia,
  now: number,
): void {
  state.published.record({
    platform: 'instagram',
    id: media.id,
    userId: user.userId,
    handle: user.handle,
    text: media.caption,
    mediaUrls: media.mediaUrls,
    mediaType: container.mediaType,
    containerId: container.id,
    permalink: media.permalink,
    createdAt: new Date(now).toISOString(),
    details: {
      ...(container.coverUrl && { coverUrl: container.coverUrl }),
      ...(container.thumbOffsetMs !== null && { thumbOffsetMs: container.thumbOffsetMs }),
      ...(container.shareToFeed !== null && { shareToFeed: container.shareToFeed }),
      ...(container.children.length && { children: container.children.length }),
    },
  });
}

/** `GET /{ig-user-id}/content_publishing_limit`: the same counter media_publish enforces. */
export function instagramPublishingLimit(state: SandboxState, user: SandboxUser): { data: Record<string, unknown>[] } {
  const { quotaTotal, quotaDurationS } = state.instagram.limits;
  return {
    data: [
      {
        quota_usage: state.instagram.publishedInWindow(user.userId, state.now()),
        config: { quota_total: quotaTotal, quota_duration: quotaDurationS },
      },
    ],
  };
}

function mediaUrlsOf(state: SandboxState, container: InstagramContainer): string[] {
  if (container.mediaUrl) return [container.mediaUrl];
  return container.children.flatMap((id) => {
    const child = state.instagram.containers.get(id);
    return child ? mediaUrlsOf(state, child) : [];
  });
}
