import { threadsTextLength } from '@postbus/platforms';
import {
  assertCarouselItems,
  carouselItemIds,
  metaContainerStatus,
  mediaUrlParam,
  ownMetaContainer,
  type MetaContainerState,
} from '../meta/containers';
import { invalidParameter } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { THREADS_MEDIA_TYPES, type ThreadsContainer, type ThreadsMediaType } from './store';

const TEXT_MAX = 500;
const LINK = /\bhttps?:\/\/[^\s]+|\bwww\.[^\s]+/gi;
/** A media URL containing `fail-processing` ends in ERROR; `fail-processing-INVALID_DURATION` picks the error_message. */
const FAIL_PROCESSING = /fail-processing(?:-([A-Z_]+))?/;

/** `POST /{user}/threads`: validates like Threads and stores an IN_PROGRESS container. */
export function createContainer(
  state: SandboxState,
  user: SandboxUser,
  params: Record<string, string>,
): ThreadsContainer {
  const mediaType = params.media_type?.toUpperCase();
  if (!mediaType) throw invalidParameter('The parameter media_type is required.');
  if (!(THREADS_MEDIA_TYPES as readonly string[]).includes(mediaType)) {
    throw invalidParameter(`Param media_type must be one of {${THREADS_MEDIA_TYPES.join(', ')}}.`);
  }
  const isCarouselItem = params.is_carousel_item === 'true';
  const text = isCarouselItem ? '' : (params.text ?? '');
  assertText(state, mediaType as ThreadsMediaType, text);

  const container: ThreadsContainer = {
    id: state.ids.numeric(),
    userId: user.userId,
    mediaType: mediaType as ThreadsMediaType,
    text,
    mediaUrl: null,
    isCarouselItem,
    children: [],
    createdAt: state.now(),
    processingError: null,
    publishedMediaId: null,
  };
  if (mediaType === 'IMAGE' || mediaType === 'VIDEO') {
    const name = mediaType === 'IMAGE' ? 'image_url' : 'video_url';
    container.mediaUrl = mediaUrlParam(params[name], name, mediaType);
    const failure = FAIL_PROCESSING.exec(container.mediaUrl);
    if (failure) container.processingError = failure[1] ?? 'FAILED_DOWNLOADING_VIDEO';
  } else if (isCarouselItem) {
    throw invalidParameter('Only IMAGE and VIDEO containers can be carousel items.');
  } else if (mediaType === 'CAROUSEL') {
    container.children = carouselChildren(state, user, params.children);
  }
  container.replyToId = replyTarget(state, user, params.reply_to_id);
  state.threads.containers.set(container.id, container);
  return container;
}

/**
 * `reply_to_id`: a published post or reply under a root post of the user's own
 * (https://developers.facebook.com/docs/threads/retrieve-and-manage-replies/create-replies: the
 * owner of the root post may reply). Comments the sandbox made up for automation are let through as they are.
 */
function replyTarget(state: SandboxState, user: SandboxUser, replyToId: string | undefined): string | null {
  if (!replyToId) return null;
  if (state.comments.comments.get(replyToId)?.platform === 'threads') return null;
  let target = state.threads.media.get(replyToId);
  if (!target)
    throw invalidParameter(
      `Param reply_to_id must be the id of a published Threads post or reply; ${replyToId} is not one.`,
    );
  for (let hops = 0; target.replyToId && hops < 1000; hops++) {
    const parent = state.threads.media.get(target.replyToId);
    if (!parent) break;
    target = parent;
  }
  if (target.userId !== user.userId)
    throw invalidParameter('(#10) The user may reply through the API only under their own posts.');
  return replyToId;
}

/** The container's status now: IN_PROGRESS for processingDelayMs, then FINISHED or ERROR (`error` is the error_message); EXPIRED after 24 h. */
export function containerStatus(state: SandboxState, container: ThreadsContainer): MetaContainerState {
  return metaContainerStatus(state.threads.containers, container, {
    now: state.now(),
    ttlMs: state.threads.limits.containerTtlMs,
    processing: (_container, age) => age < state.settingsFor('threads').processingDelayMs,
    missingChildError: 'UNKNOWN',
  });
}

/** The user's own container, or Graph's "does not exist" answer. */
export function ownContainer(
  state: SandboxState,
  user: SandboxUser,
  id: string,
  method: 'get' | 'post',
): ThreadsContainer {
  return ownMetaContainer(state.threads.containers, user, id, method);
}

function assertText(state: SandboxState, mediaType: ThreadsMediaType, text: string): void {
  if (mediaType === 'TEXT' && !text.trim())
    throw invalidParameter('The parameter text is required for media_type TEXT.');
  const length = threadsTextLength(text);
  if (length > TEXT_MAX) {
    throw invalidParameter(
      `Param text must be at most ${TEXT_MAX} characters long.`,
      `The text is ${length} characters long; posts can be at most ${TEXT_MAX} characters.`,
    );
  }
  const links = text.match(LINK)?.length ?? 0;
  if (links > state.threads.limits.linkMax) {
    throw invalidParameter(
      'THREADS_API__LINK_LIMIT_EXCEEDED',
      `Posts can include at most ${state.threads.limits.linkMax} links.`,
    );
  }
}

function carouselChildren(state: SandboxState, user: SandboxUser, raw: string | undefined): string[] {
  const ids = carouselItemIds(raw);
  const { carouselMin, carouselMax } = state.threads.limits;
  if (ids.length < carouselMin || ids.length > carouselMax) {
    throw invalidParameter(`Param children must list between ${carouselMin} and ${carouselMax} carousel item ids.`);
  }
  if (new Set(ids).size !== ids.length) throw invalidParameter('Param children must not repeat an id.');
  assertCarouselItems(state.threads.containers, user, ids);
  return ids;
}
