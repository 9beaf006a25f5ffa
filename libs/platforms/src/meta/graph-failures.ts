import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import {
  GRAPH_THROTTLE_CODES,
  GRAPH_TOKEN_CODES,
  cleanGraphMessage,
  isGraphPermissionCode,
  type GraphErrorBody,
} from './graph-error';
import type { GraphNetworkFailure } from './graph-request';

/** No answer from a Meta platform: the network failed or the call timed out. Always worth retrying. */
export function graphNetworkError(platform: Platform, label: string): (failure: GraphNetworkFailure) => PlatformError {
  return ({ timedOut, maybeDelivered, cause }) => {
    const reason = timedOut
      ? `${label} did not answer in time; publishing will be tried again.`
      : maybeDelivered
        ? `The connection to ${label} broke before it answered; publishing will be tried again.`
        : `${label} could not be reached; publishing will be tried again.`;
    return new PlatformError(reason, {
      platform,
      transient: true,
      code: timedOut ? 'timeout' : maybeDelivered ? 'network_error' : 'unreachable',
      cause,
    });
  };
}

/** Input the platform would refuse, refused before any call. */
export function graphInvalidInput(platform: Platform): (code: string, reason: string) => PlatformError {
  return (code, reason) => new PlatformError(reason, { platform, transient: false, code });
}

/** How one Meta platform words the refusals every Meta platform shares. */
export interface GraphWording {
  /** The platform's name in sentences: `Facebook`. */
  label: string;
  /** Codes 102 and 190: the token is invalid or expired. */
  tokenReason: string;
  /** Code 10 and 200–299: a permission is missing. */
  permissionReason: string;
  /** Code 3: the app lacks the capability. */
  appNotEnabledReason: string;
  /** Graph's throttling codes. */
  throttledReason: string;
  /** Where to look when an answer could not be read: `the Facebook API base URLs`. */
  baseUrls: string;
  /** What of the post to check when the platform gave no reason: `text and media`. */
  postParts: string;
  /** The sentence for a 2xx answer that could not be read, when the platform has one of its own. */
  unreadableSuccess?: string;
  /** The platform's own codes and messages, checked after throttling; undefined when none matched. */
  ownReason?(error: GraphErrorBody): string | undefined;
}

/** The sentence for a Meta refusal: the checks every Meta platform shares, with the platform's own in between. */
export function graphRefusalReason(
  wording: GraphWording,
  status: number,
  error: GraphErrorBody | undefined,
  transient: boolean,
): string {
  const { label } = wording;
  if (!error) return unreadableAnswerReason(wording, status, transient);
  const code = error.code;
  if (code !== undefined && GRAPH_TOKEN_CODES.has(code)) return wording.tokenReason;
  if (isGraphPermissionCode(code)) return wording.permissionReason;
  if (code === 3) return wording.appNotEnabledReason;
  if (code !== undefined && GRAPH_THROTTLE_CODES.has(code)) return wording.throttledReason;
  const own = wording.ownReason?.(error);
  if (own) return own;
  const detail = cleanGraphMessage(error.error_user_msg) ?? cleanGraphMessage(error.message);
  if (transient)
    return `${label} had a temporary problem${detail ? ` (${detail})` : ''}; publishing will be tried again.`;
  return detail
    ? `${label} refused the post: ${/[.!?]$/.test(detail) ? detail : `${detail}.`}`
    : `${label} refused the post without saying why (error ${code ?? status}); check the post's ${wording.postParts}.`;
}

function unreadableAnswerReason(wording: GraphWording, status: number, transient: boolean): string {
  if (transient) return `${wording.label} answered HTTP ${status} without details; publishing will be tried again.`;
  if (wording.unreadableSuccess && status >= 200 && status < 300) return wording.unreadableSuccess;
  return `${wording.label} answered HTTP ${status} with a response Postbus could not read; check ${wording.baseUrls}.`;
}

/** Code 368: the account is blocked from posting for a while. */
export function graphPolicyBlockReason(label: string, subject: string): string {
  return `${label} has temporarily blocked this ${subject} from posting for a policy reason; wait a few hours and try again.`;
}

/** Code 506: the same post was published a moment ago. */
export function graphDuplicateReason(label: string): string {
  return `${label} refused the post as a duplicate of a recent one; change the text and try again.`;
}
