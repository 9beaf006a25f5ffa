import {
  assertCarouselItems,
  carouselItemIds,
  metaContainerStatus,
  mediaUrlParam,
  ownMetaContainer,
  type MetaContainerState,
} from '../meta/containers';
import { GraphError, invalidParameter } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { INSTAGRAM_MEDIA_TYPES, type InstagramContainer, type InstagramMediaType } from './store';

/**
 * A media URL containing `fail-processing` ends in ERROR (2207052, media fetch failed); `fail-processing-2207026`
 * picks the subcode; `fail-processing-2207003-once` fails only the account's first container of that URL (a
 * passing failure: a new container of the same media succeeds).
 */
const FAIL_PROCESSING = /fail-processing(?:-(\d{7}))?(-once)?/;
const VIDEO_PATH = /\.(mp4|m4v|mov|webm)(\?|$)/i;

/** `POST /{ig-user-id}/media`: validates like Instagram and stores an IN_PROGRESS container. */
export function createInstagramContainer(
  state: SandboxState,
  user: SandboxUser,
  params: Record<string, string>,
): InstagramContainer {
  const isCarouselItem = params.is_carousel_item === 'true';
  const mediaType = (params.media_type?.toUpperCase() || (params.image_url ? 'IMAGE' : '')) as InstagramMediaType;
  if (!mediaType) throw invalidParameter('The parameter image_url is required.');
  if (!(INSTAGRAM_MEDIA_TYPES as readonly string[]).includes(mediaType)) {
    throw invalidParameter(`Param media_type must be one of {${INSTAGRAM_MEDIA_TYPES.join(', ')}}.`);
  }
  if (mediaType === 'VIDEO' && !isCarouselItem) {
    throw invalidParameter(
      'The VIDEO media type is no longer supported for feed posts; publish videos as REELS.',
      'Use media_type=REELS for videos.',
    );
  }
  const caption = isCarouselItem || mediaType === 'STORIES' ? '' : (params.caption ?? '');
  assertCaption(state, caption);

  const container: InstagramContainer = {
    id: state.ids.numeric(),
    userId: user.userId,
    mediaType,
    caption,
    mediaUrl: null,
    isVideo: false,
    coverUrl: params.cover_url ?? null,
    thumbOffsetMs: null,
    shareToFeed: params.share_to_feed === undefined ? null : params.share_to_feed === 'true',
    isCarouselItem,
    children: [],
    createdAt: state.now(),
    processingError: null,
    publishedMediaId: null,
  };
  if (mediaType === 'CAROUSEL') {
    if (isCarouselItem) throw invalidParameter('A CAROUSEL container cannot be a carousel item.');
    container.children = carouselChildren(state, user, params.children);
  } else {
    const wantsVideo =
      mediaType === 'REELS' || mediaType === 'VIDEO' || (mediaType === 'STORIES' && !!params.video_url);
    const name = wantsVideo ? 'video_url' : 'image_url';
    container.mediaUrl = mediaUrlParam(params[name], name, mediaType);
    container.isVideo = wantsVideo;
    if (!wantsVideo && VIDEO_PATH.test(container.mediaUrl)) {
      throw new GraphError(400, 100, '(#100) The image_url does not point at an image.', {
        subcode: 2207023,
        userMsg: 'The media type is not supported.',
      });
    }
    const failure = FAIL_PROCESSING.exec(container.mediaUrl);
    if (failure && !(failure[2] && hasContainerOf(state, user, container.mediaUrl)))
      container.processingError = `9004/${failure[1] ?? '2207052'}`;
  }
  if (params.thumb_offset !== undefined) {
    const offset = Number(params.thumb_offset);
    if (
      !container.isVideo ||
      !Number.isInteger(offset) ||
      offset < 0 ||
      offset >= state.instagram.limits.videoDurationMs
    ) {
      throw new GraphError(400, 1, 'The thumb_offset is outside the video duration.', {
        subcode: 2207057,
        isTransient: false,
        userTitle: 'Invalid thumbnail offset',
        userMsg: 'The thumbnail offset must be within the duration of the video.',
      });
    }
    container.thumbOffsetMs = offset;
  }
  state.instagram.containers.set(container.id, container);
  return container;
}

/** IN_PROGRESS while a video processes (images are quick), then FINISHED or ERROR; EXPIRED after 24 h; PUBLISHED once live. */
export function instagramContainerStatus(state: SandboxState, container: InstagramContainer): MetaContainerState {
  return metaContainerStatus(state.instagram.containers, container, {
    now: state.now(),
    ttlMs: state.instagram.limits.containerTtlMs,
    // Images are quick; a video processes for the processing delay, and while reel inspection reads it.
    processing: (c, age) => c.isVideo && (!!c.inspecting || age < state.settingsFor('instagram').processingDelayMs),
    missingChildError: '-1/2207028',
  });
}

function hasContainerOf(state: SandboxState, user: SandboxUser, mediaUrl: string): boolean {
  return [...state.instagram.containers.values()].some((c) => c.userId === user.userId && c.mediaUrl === mediaUrl);
}

export function ownInstagramContainer(state: SandboxState, user: SandboxUser, id: string): InstagramContainer {
  return ownMetaContainer(state.instagram.containers, user, id, 'get');
}

function assertCaption(state: SandboxState, caption: string): void {
  const { captionMax, hashtagMax, mentionMax } = state.instagram.limits;
  const tooLong = [...caption].length > captionMax;
  const hashtags = caption.match(/(^|\s)#[\p{L}\p{N}_]+/gu)?.length ?? 0;
  const mentions = caption.match(/(^|\s)@[\w.]+/g)?.length ?? 0;
  if (tooLong || hashtags > hashtagMax || mentions > mentionMax) {
    throw new GraphError(400, 100, '(#100) The caption is too long or has too many hashtags or mentions.', {
      subcode: 2207010,
      userMsg: `Captions can be at most ${captionMax} characters with ${hashtagMax} hashtags and ${mentionMax} @-mentions.`,
    });
  }
}

function carouselChildren(state: SandboxState, user: SandboxUser, raw: string | undefined): string[] {
  const ids = carouselItemIds(raw);
  const { carouselMin, carouselMax } = state.instagram.limits;
  if (ids.length < carouselMin || ids.length > carouselMax || new Set(ids).size !== ids.length) {
    throw new GraphError(
      400,
      100,
      `(#100) Param children must list between ${carouselMin} and ${carouselMax} distinct carousel item ids.`,
      { subcode: 2207028 },
    );
  }
  assertCarouselItems(state.instagram.containers, user, ids);
  return ids;
}
