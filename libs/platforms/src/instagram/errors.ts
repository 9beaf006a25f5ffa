import { PlatformError } from '../errors';
import { isGraphTransient, type GraphErrorBody } from '../meta/graph-error';
import {
  graphInvalidInput,
  graphNetworkError,
  graphPolicyBlockReason,
  graphRefusalReason,
  type GraphWording,
} from '../meta/graph-failures';
import { graphRefusalError, readGraphRefusal } from '../meta/graph-refusal';
import { graphThrottle } from '../meta/graph-usage';
import type { GraphErrorMapper, GraphFailure } from '../meta/graph-request';

const platform = 'instagram' as const;

/** media_publish over the account's rolling publishing limit: code 9, subcode 2207042 (https://developers.facebook.com/docs/instagram-platform/reference/error-codes). */
const PUBLISHING_LIMIT_CODE = 9;
const PUBLISHING_LIMIT_SUBCODE = 2207042;

export const INSTAGRAM_TOKEN_REASON = 'The Instagram access token is invalid or expired; reconnect the profile.';

interface SubcodeRule {
  transient: boolean;
  reason: string;
}

/** Instagram's own error subcodes (platform-apis 1.7), each with what a person should do. */
const SUBCODES: Record<number, SubcodeRule> = {
  2207001: {
    transient: true,
    reason: 'Instagram had a server error while preparing the post; publishing will be tried again.',
  },
  2207003: { transient: true, reason: 'Instagram timed out downloading the media; publishing will be tried again.' },
  2207004: {
    transient: false,
    reason: 'The image is larger than the 8 MB Instagram accepts; resize or compress it and publish again.',
  },
  2207005: { transient: false, reason: 'Instagram does not accept the image format; use a JPEG image.' },
  2207006: {
    transient: false,
    reason:
      'Instagram could not find the media at the link; make sure the link is public and points at the file itself.',
  },
  2207008: {
    transient: true,
    reason: 'The Instagram media container was not ready yet; publishing will be tried again.',
  },
  2207009: {
    transient: false,
    reason: "Instagram does not accept the media's aspect ratio; use an image between 4:5 and 1.91:1, or a 9:16 video.",
  },
  2207010: {
    transient: false,
    reason:
      'The caption is too long for Instagram (at most 2,200 characters, 30 hashtags and 20 @-mentions); shorten it.',
  },
  2207020: {
    transient: false,
    reason:
      'The Instagram media container expired before it was published (containers last 24 hours); publish the post again.',
  },
  2207023: {
    transient: false,
    reason: 'Instagram did not recognise the media type; use a JPEG image or an MP4 video.',
  },
  2207026: {
    transient: false,
    reason:
      "Instagram does not accept the video's format; re-encode it as an H.264 MP4 with AAC audio and the moov atom at the start.",
  },
  2207027: {
    transient: true,
    reason: 'The Instagram media was not ready to publish yet; publishing will be tried again.',
  },
  2207028: { transient: false, reason: 'Instagram refused the carousel; a carousel needs 2 to 10 images or videos.' },
  2207032: {
    transient: true,
    reason: 'Instagram failed to create the media container; publishing will be tried again.',
  },
  2207042: {
    transient: true,
    reason:
      'This Instagram account has reached its limit of API-published posts for the last 24 hours; publishing waits until a slot frees.',
  },
  2207050: {
    transient: false,
    reason: 'The Instagram account is inactive or restricted; check the account in the Instagram app.',
  },
  2207051: {
    transient: false,
    reason:
      "Instagram restricted this account's activity to protect its community (spam protection); wait a few hours before publishing again.",
  },
  2207052: {
    transient: false,
    reason:
      'Instagram could not fetch the media: the link must be public and point straight at the file. Upload the file with the media endpoints, or fix the link.',
  },
  2207053: {
    transient: true,
    reason: 'Instagram had an unknown problem uploading the video; publishing will be tried again.',
  },
  2207057: {
    transient: false,
    reason: 'The cover frame offset (thumbOffsetMs) is outside the video; pick an offset shorter than the video.',
  },
};

/** A sentence for a container that ended in ERROR; `status` carries e.g. "9004/2207052" or free text with the subcode. */
export function instagramContainerErrorReason(status: string | null | undefined): {
  reason: string;
  subcode?: number;
  transient: boolean;
} {
  const subcode = Number(/\b(22070\d\d)\b/.exec(status ?? '')?.[1]);
  const rule = Number.isInteger(subcode) ? SUBCODES[subcode] : undefined;
  if (rule) return { reason: rule.reason, subcode, transient: rule.transient };
  return {
    reason:
      "Instagram could not process the media and gave no usable reason; check that it is a JPEG image or an H.264 MP4 video within Instagram's limits.",
    transient: false,
  };
}

/** Maps any answer of the Instagram Graph API that is not a success. */
export function instagramErrorFromResponse(failure: GraphFailure): PlatformError {
  const refusal = readGraphRefusal(failure);
  const { status, headers, error, retryAfterMs } = refusal;
  const rule = error?.error_subcode !== undefined ? SUBCODES[error.error_subcode] : undefined;
  const quotaFull =
    error?.error_subcode === PUBLISHING_LIMIT_SUBCODE || (!rule && error?.code === PUBLISHING_LIMIT_CODE);
  const transient = quotaFull || (rule ? rule.transient : !refusal.tokenRejected && isGraphTransient(status, error));
  // a subcode of its own (e.g. 2207051, spam protection, sent with code 4) is not a throttle
  const throttle = quotaFull
    ? ({ kind: 'publishing_quota', scope: 'account' } as const)
    : rule
      ? undefined
      : graphThrottle(status, error, headers, retryAfterMs);
  return graphRefusalError(platform, refusal, {
    reason: rule?.reason ?? graphRefusalReason(INSTAGRAM_WORDING, status, error, transient),
    transient,
    throttle,
  });
}

export const instagramNetworkError = graphNetworkError(platform, 'Instagram');

export const instagramErrorMapper: GraphErrorMapper = {
  platform: 'instagram',
  fromResponse: instagramErrorFromResponse,
  fromNetwork: instagramNetworkError,
};

export const instagramInvalidInput = graphInvalidInput(platform);

const INSTAGRAM_WORDING: GraphWording = {
  label: 'Instagram',
  tokenReason: INSTAGRAM_TOKEN_REASON,
  permissionReason:
    'Postbus is not allowed to publish to this Instagram account (the content publishing permission is missing or was revoked); reconnect the profile and grant publishing access.',
  appNotEnabledReason:
    'The Instagram app is not enabled for content publishing; an operator must add the capability to the app.',
  throttledReason: 'Instagram is limiting how often this account may be called; publishing will be tried again later.',
  baseUrls: 'the Instagram API base URL',
  postParts: 'caption and media',
  ownReason: (error: GraphErrorBody) => {
    if (error.code === PUBLISHING_LIMIT_CODE) return SUBCODES[PUBLISHING_LIMIT_SUBCODE].reason;
    if (error.code === 368) return graphPolicyBlockReason('Instagram', 'account');
    return undefined;
  },
};
