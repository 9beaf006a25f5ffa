import type { SandboxUser } from '../users';
import { invalidParameter, objectNotFound } from './graph-error';

/**
 * What an Instagram and a Threads media container have alike: both are made by one call, processed,
 * then published by a second (https://developers.facebook.com/docs/instagram-platform/content-publishing,
 * https://developers.facebook.com/docs/threads/posts).
 */
export interface MetaContainer {
  id: string;
  userId: string;
  isCarouselItem: boolean;
  children: string[];
  createdAt: number;
  /** Set at creation for media the sandbox will "fail to process"; reported once processing ends. */
  processingError: string | null;
  publishedMediaId: string | null;
}

export type MetaContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

/** A container's status; `error` says why an ERROR, in the platform's own words. */
export interface MetaContainerState {
  status: MetaContainerStatus;
  error?: string;
}

/** The user's own container, or Graph's "does not exist" answer. */
export function ownMetaContainer<C extends MetaContainer>(
  containers: ReadonlyMap<string, C>,
  user: SandboxUser,
  id: string,
  method: 'get' | 'post',
): C {
  const container = containers.get(id);
  if (!container || container.userId !== user.userId) throw objectNotFound(method, id);
  return container;
}

/** `image_url` or `video_url`: required for the media type, an http or https URL. */
export function mediaUrlParam(value: string | undefined, name: string, mediaType: string): string {
  if (!value) throw invalidParameter(`The parameter ${name} is required for media_type ${mediaType}.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(`Param ${name} must be a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParameter(`Param ${name} must be an http or https URL.`);
  return value;
}

/** The ids a `children` parameter lists, comma-separated; how many it may list is each platform's rule. */
export function carouselItemIds(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** Each child must be one of the user's containers made with `is_carousel_item=true` and not yet published. */
export function assertCarouselItems<C extends MetaContainer>(
  containers: ReadonlyMap<string, C>,
  user: SandboxUser,
  ids: string[],
): void {
  for (const id of ids) {
    const child = containers.get(id);
    if (!child || child.userId !== user.userId) throw invalidParameter(`Carousel item ${id} does not exist.`);
    if (!child.isCarouselItem) throw invalidParameter(`Container ${id} was not created with is_carousel_item=true.`);
    if (child.publishedMediaId) throw invalidParameter(`Carousel item ${id} has already been published.`);
  }
}

/** What tells one platform's container status from the other's. */
export interface MetaStatusRules<C extends MetaContainer> {
  now: number;
  /** A container not published within this time is EXPIRED. */
  ttlMs: number;
  /** Whether the container is still being processed at this age (ms). */
  processing: (container: C, age: number) => boolean;
  /** The error a carousel reports when one of its children cannot be found. */
  missingChildError: string;
}

/**
 * A container's status now: PUBLISHED once live, EXPIRED after the TTL, IN_PROGRESS while it
 * processes, then ERROR or FINISHED. A carousel is in ERROR when a child is missing, failed or
 * expired (the child's error), IN_PROGRESS while a child still processes, else FINISHED.
 */
export function metaContainerStatus<C extends MetaContainer>(
  containers: ReadonlyMap<string, C>,
  container: C,
  rules: MetaStatusRules<C>,
): MetaContainerState {
  if (container.publishedMediaId) return { status: 'PUBLISHED' };
  const age = rules.now - container.createdAt;
  if (age >= rules.ttlMs) return { status: 'EXPIRED' };
  if (rules.processing(container, age)) return { status: 'IN_PROGRESS' };
  if (container.processingError) return { status: 'ERROR', error: container.processingError };
  let inProgress = false;
  for (const childId of container.children) {
    const child = containers.get(childId);
    const childState: MetaContainerState = child
      ? metaContainerStatus(containers, child, rules)
      : { status: 'ERROR', error: rules.missingChildError };
    if (childState.status === 'ERROR' || childState.status === 'EXPIRED')
      return { status: 'ERROR', error: childState.error ?? rules.missingChildError };
    if (childState.status === 'IN_PROGRESS') inProgress = true;
  }
  return { status: inProgress ? 'IN_PROGRESS' : 'FINISHED' };
}
