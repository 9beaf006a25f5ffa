import { PlatformError } from '../errors';
import { isGraphTransient, type GraphErrorBody } from '../meta/graph-error';
import {
  graphDuplicateReason,
  graphInvalidInput,
  graphNetworkError,
  graphPolicyBlockReason,
  type GraphWording,
} from '../meta/graph-failures';
import { graphErrorFromResponse } from '../meta/graph-refusal';
import type { GraphErrorMapper } from '../meta/graph-request';
import { THREADS_CAROUSEL_MAX, THREADS_TEXT_MAX } from './text';

const platform = 'threads' as const;

export const THREADS_TOKEN_REASON = 'The Threads access token is invalid or expired; reconnect the profile';

/** Subcode Threads answers when a container is not (yet) visible to threads_publish. */
const MEDIA_NOT_FOUND_SUBCODE = 4279009;

/** Readable reasons for a container's `error_message` when its status is ERROR. */
const CONTAINER_ERROR_REASONS: Record<string, string> = {
  FAILED_DOWNLOADING_VIDEO:
    'Threads could not download the media; make sure the media URL is public and serves the file itself, not a web page.',
  FAILED_PROCESSING_AUDIO:
    "Threads could not process the video's audio; re-encode the audio as AAC (stereo, 48 kHz or less) and try again.",
  FAILED_PROCESSING_VIDEO: 'Threads could not process the video; re-encode it as an H.264 MP4 and try again.',
  INVALID_ASPEC_RATIO:
    "Threads does not accept the media's aspect ratio; crop it to a common ratio such as 9:16, 4:5 or 1:1.",
  INVALID_BIT_RATE: "Threads does not accept the video's bit rate; re-encode it at a lower bit rate and try again.",
  INVALID_DURATION:
    "Threads does not accept the video's duration; trim it to at most 5 minutes and make it longer than a second.",
  INVALID_FRAME_RATE: "Threads does not accept the video's frame rate; re-encode it at 23 to 60 frames per second.",
  INVALID_AUDIO_CHANNELS: "Threads does not accept the video's audio channels; use mono or stereo audio.",
  INVALID_AUDIO_CHANNEL_LAYOUT:
    "Threads does not accept the video's audio channel layout; use a standard mono or stereo layout.",
};

const UNKNOWN_CONTAINER_ERROR_REASON =
  'Threads could not process the media and gave no reason; check that the file is a standard JPEG, PNG or MP4 and try again.';

/** A sentence a person can act on, for a container that ended in ERROR with this `error_message`. */
export function threadsContainerErrorReason(errorMessage: string | null | undefined): string {
  return (errorMessage && CONTAINER_ERROR_REASONS[errorMessage]) || UNKNOWN_CONTAINER_ERROR_REASON;
}

/** A container that ended in ERROR or EXPIRED: permanent, nothing was published. */
export function threadsContainerFailure(
  status: 'ERROR' | 'EXPIRED',
  errorMessage: string | null | undefined,
  containerId: string,
): PlatformError {
  const reason =
    status === 'EXPIRED'
      ? 'The Threads media container expired before it was published (containers last 24 hours); publish the post again.'
      : threadsContainerErrorReason(errorMessage);
  return new PlatformError(reason, { platform, transient: false, code: errorMessage || status, containerId });
}

/** Threads kept the container IN_PROGRESS for longer than we were willing to wait. */
export function threadsStillProcessing(containerId: string, waitedMs: number): PlatformError {
  const seconds = Math.round(waitedMs / 1000);
  return new PlatformError(
    `Threads was still processing the media after ${seconds} seconds; publishing will be tried again later.`,
    { platform, transient: true, code: 'processing_timeout', containerId },
  );
}

export const threadsInvalidInput = graphInvalidInput(platform);

export function threadsTextTooLong(length: number): PlatformError {
  return threadsInvalidInput(
    'text_too_long',
    `The text is ${length} characters long as Threads counts it (an emoji counts as several); Threads allows at most ${THREADS_TEXT_MAX}. Shorten it.`,
  );
}

export function threadsTooManyMedia(count: number): PlatformError {
  return threadsInvalidInput(
    'too_many_media',
    `The post has ${count} media items; a Threads carousel holds at most ${THREADS_CAROUSEL_MAX}.`,
  );
}

function isMediaNotFound(error: GraphErrorBody | undefined): boolean {
  return error?.code === 24 && error.error_subcode === MEDIA_NOT_FOUND_SUBCODE;
}

const THREADS_WORDING: GraphWording = {
  label: 'Threads',
  tokenReason: THREADS_TOKEN_REASON,
  permissionReason:
    'Postbus is not allowed to publish to this Threads profile (the threads_content_publish permission is missing or was revoked); reconnect the profile and grant publishing access.',
  appNotEnabledReason:
    'The Threads app is not enabled for this call; an operator must add the publishing capability to the Threads app.',
  throttledReason: 'Threads is limiting how often this app may call it; publishing will be tried again later.',
  baseUrls: 'the Threads API base URL',
  postParts: 'text and media',
  unreadableSuccess: 'Threads answered with a response Postbus could not read; the Threads API base URL may be wrong.',
  ownReason: threadsOwnReason,
};

/** Maps any answer of graph.threads.net that is not a success. */
export const threadsErrorFromResponse = graphErrorFromResponse(platform, {
  wording: THREADS_WORDING,
  // Graph's transient rule (without the default's exception for a rejected token), and a container not yet visible.
  transient: ({ status, error }) => isGraphTransient(status, error) || isMediaNotFound(error),
  // Threads counts calls over 24 hours, not Graph's hour (https://developers.facebook.com/docs/threads/overview)
  throttleWindowMs: 86_400_000,
});

export const threadsNetworkError = graphNetworkError(platform, 'Threads');

export const threadsErrorMapper: GraphErrorMapper = {
  platform: 'threads',
  fromResponse: threadsErrorFromResponse,
  fromNetwork: threadsNetworkError,
};

function threadsOwnReason(error: GraphErrorBody): string | undefined {
  if (isMediaNotFound(error)) return 'Threads could not find the media container yet; publishing will be tried again.';
  if (error.code === 9)
    return 'This Threads profile has reached its limit of API-published posts for the last 24 hours; publish it again later.';
  if (error.code === 368) return graphPolicyBlockReason('Threads', 'profile');
  if (error.code === 506) return graphDuplicateReason('Threads');
  if (error.message?.includes('LINK_LIMIT_EXCEEDED'))
    return 'The text contains more than 5 links; Threads allows at most 5 per post. Remove some links.';
  return undefined;
}
