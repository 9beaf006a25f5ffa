import { GraphError, invalidParameter } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { containerStatus } from './containers';
import type { ThreadsContainer, ThreadsMedia } from './store';

/**
 * `POST /{user}/threads_publish?creation_id=`: a FINISHED container goes live exactly once.
 *
 * - unknown container, or one still IN_PROGRESS → code 24 / subcode 4279009 "Media Not Found",
 *   the answer Threads gives when publish comes before processing ends;
 * - ERROR, EXPIRED, or a carousel item on its own → code 100;
 * - already PUBLISHED → code 100 "already been published" (sandbox choice: Meta does not document
 *   this case, and a client must never treat a repeated publish as a way to learn the media id;
 *   it asks the container's status instead, which answers PUBLISHED);
 * - over the rolling quota → code 9 (sandbox choice, modelled on Instagram's 9/2207042).
 */
export function publishContainer(state: SandboxState, user: SandboxUser, creationId: string | undefined): ThreadsMedia {
  const container = publishableContainer(state, user, creationId);
  const now = state.now();
  assertUnderQuota(state, user, container, now);
  const media = mediaOf(state, user, container, now);
  state.threads.media.set(media.id, media);
  container.publishedMediaId = media.id;
  recordPublished(state, user, media, now);
  return media;
}

/** The user's container named by creation_id, when it is FINISHED and may go live on its own. */
function publishableContainer(
  state: SandboxState,
  user: SandboxUser,
  creationId: string | undefined,
): ThreadsContainer {
  if (!creationId) throw invalidParameter('The parameter creation_id is required.');
  const container = state.threads.containers.get(creationId);
  if (!container || container.userId !== user.userId) throw mediaNotFound(creationId);
  const { status, error: errorMessage } = containerStatus(state, container);
  if (status === 'IN_PROGRESS') throw mediaNotFound(creationId);
  if (status === 'PUBLISHED') {
    throw invalidParameter(
      `The media container ${creationId} has already been published.`,
      'This post has already been published.',
    );
  }
  if (status === 'ERROR') {
    throw invalidParameter(
      `The media container ${creationId} failed processing (${errorMessage}) and cannot be published.`,
      'The media could not be processed.',
    );
  }
  if (status === 'EXPIRED')
    throw invalidParameter(
      `The media container ${creationId} has expired.`,
      'The media container has expired; create a new one.',
    );
  if (container.isCarouselItem)
    throw invalidParameter('A carousel item cannot be published on its own; publish its CAROUSEL container.');
  return container;
}

function assertUnderQuota(state: SandboxState, user: SandboxUser, container: ThreadsContainer, now: number): void {
  const { quotaTotal } = state.threads.limits;
  // Replies have a quota of their own (reply_config), which the sandbox reports but does not enforce.
  if (!container.replyToId && state.threads.publishedInWindow(user.userId, now) >= quotaTotal) {
    throw new GraphError(
      400,
      9,
      `(#9) The user has reached the limit of ${quotaTotal} API-published posts in 24 hours.`,
      {
        userTitle: 'Publishing limit reached',
        userMsg: `You can publish at most ${quotaTotal} posts in 24 hours through the API.`,
      },
    );
  }
}

function mediaOf(state: SandboxState, user: SandboxUser, container: ThreadsContainer, now: number): ThreadsMedia {
  const shortcode = state.ids.shortcode();
  return {
    id: state.ids.numeric(),
    userId: user.userId,
    username: user.handle,
    containerId: container.id,
    mediaType: container.mediaType,
    text: container.text,
    mediaUrls: mediaUrlsOf(state, container.id),
    shortcode,
    permalink: `https://www.threads.net/@${user.handle}/post/${shortcode}`,
    publishedAt: now,
    replyToId: container.replyToId ?? null,
  };
}

/** Records the post for the control API; a reply is also listed among the comments on the post it answers. */
function recordPublished(state: SandboxState, user: SandboxUser, media: ThreadsMedia, now: number): void {
  state.published.record({
    platform: 'threads',
    id: media.id,
    userId: user.userId,
    handle: user.handle,
    text: media.text,
    mediaUrls: media.mediaUrls,
    mediaType: media.mediaType,
    containerId: media.containerId,
    permalink: media.permalink,
    createdAt: new Date(now).toISOString(),
    ...(media.replyToId && { details: { replyToId: media.replyToId } }),
  });
  if (media.replyToId) {
    state.comments.postComments.push({
      platform: 'threads',
      id: media.id,
      postId: media.replyToId,
      accountId: user.userId,
      text: media.text,
      permalink: media.permalink,
      createdAt: new Date(now).toISOString(),
    });
  }
}

/** `GET /{user}/threads_publishing_limit`: the same counter threads_publish enforces. */
export function publishingLimit(
  state: SandboxState,
  user: SandboxUser,
  fields: string[],
): { data: Record<string, unknown>[] } {
  const { quotaTotal, quotaDurationS, replyQuotaTotal } = state.threads.limits;
  const all: Record<string, unknown> = {
    quota_usage: state.threads.publishedInWindow(user.userId, state.now()),
    config: { quota_total: quotaTotal, quota_duration: quotaDurationS },
    reply_quota_usage: state.threads.publishedInWindow(user.userId, state.now(), true),
    reply_config: { quota_total: replyQuotaTotal, quota_duration: quotaDurationS },
  };
  const wanted = fields.length ? fields : ['quota_usage', 'config'];
  return { data: [Object.fromEntries(wanted.filter((f) => f in all).map((f) => [f, all[f]]))] };
}

function mediaNotFound(id: string): GraphError {
  return new GraphError(400, 24, 'The requested resource does not exist', {
    subcode: 4279009,
    isTransient: false,
    userTitle: 'Media Not Found',
    userMsg: `The media with id ${id} cannot be found.`,
  });
}

function mediaUrlsOf(state: SandboxState, containerId: string): string[] {
  const container = state.threads.containers.get(containerId);
  if (!container) return [];
  if (container.mediaUrl) return [container.mediaUrl];
  return container.children.flatMap((id) => mediaUrlsOf(state, id));
}
