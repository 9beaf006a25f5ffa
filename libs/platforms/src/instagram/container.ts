import { PlatformError } from '../errors';
import { graphIdOf } from '../meta/graph-api';
import { callInstagram, type InstagramApiOptions } from './api';
import { instagramContainerErrorReason } from './errors';

export const INSTAGRAM_CONTAINER_STATUSES = ['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED'] as const;
export type InstagramContainerStatus = (typeof INSTAGRAM_CONTAINER_STATUSES)[number];

export interface InstagramContainerState {
  containerId: string;
  status: InstagramContainerStatus;
  /** When ERROR or EXPIRED: a sentence a person can act on, and whether trying again may help. */
  reason: string | null;
  transient: boolean;
}

/** `POST /{ig-user-id}/media`: one container (image, reel, story, carousel item or carousel). */
export async function createInstagramContainer(
  api: InstagramApiOptions & { userId: string },
  params: Record<string, string | undefined>,
): Promise<string> {
  const body = await callInstagram(api, 'POST', [api.userId, 'media'], { form: params });
  const id = graphIdOf(body);
  if (!id) throw unreadable('creating the media container');
  return id;
}

/** `GET /{container-id}?fields=status_code,status`: where the container stands. */
export async function getInstagramContainerStatus(
  api: InstagramApiOptions & { containerId: string },
): Promise<InstagramContainerState> {
  const body = await callInstagram(api, 'GET', [api.containerId], { query: { fields: 'status_code,status' } });
  const status = body.status_code;
  if (typeof status !== 'string' || !(INSTAGRAM_CONTAINER_STATUSES as readonly string[]).includes(status)) {
    throw unreadable('reading the media container status');
  }
  if (status === 'ERROR') {
    const { reason, transient } = instagramContainerErrorReason(typeof body.status === 'string' ? body.status : null);
    return { containerId: api.containerId, status, reason, transient };
  }
  if (status === 'EXPIRED') {
    return {
      containerId: api.containerId,
      status,
      reason:
        'The Instagram media container expired before it was published (containers last 24 hours); publish the post again.',
      transient: false,
    };
  }
  return { containerId: api.containerId, status: status as InstagramContainerStatus, reason: null, transient: false };
}

/**
 * A container that ended in ERROR or EXPIRED, as a PlatformError. A container in ERROR stays there,
 * so a "try again" subcode (2207001, 2207003, 2207032, 2207053) means a new container
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes).
 */
export function instagramContainerFailure(state: InstagramContainerState): PlatformError {
  return new PlatformError(state.reason ?? 'Instagram could not process the media.', {
    platform: 'instagram',
    transient: state.transient,
    code: state.status,
    containerId: state.containerId,
    restart: state.status === 'ERROR' && state.transient,
  });
}

function unreadable(step: string): PlatformError {
  return new PlatformError(
    `Instagram answered ${step} with a response Postbus could not read; publishing will be tried again.`,
    {
      platform: 'instagram',
      transient: true,
      code: 'invalid_response',
    },
  );
}
