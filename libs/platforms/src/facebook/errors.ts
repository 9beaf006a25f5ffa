import { PlatformError } from '../errors';
import {
  GRAPH_THROTTLE_CODES,
  GRAPH_TOKEN_CODES,
  cleanGraphMessage,
  graphRetryAfterMs,
  isGraphPermissionCode,
  isGraphTransient,
  parseGraphError,
  type GraphErrorBody,
} from '../meta/graph-error';
import { graphThrottle } from '../meta/graph-usage';
import type { GraphErrorMapper, GraphFailure, GraphNetworkFailure } from '../meta/graph-request';

const platform = 'facebook' as const;

export const FACEBOOK_TOKEN_REASON = 'The Facebook Page access token is invalid or expired; reconnect the Page.';

/** Maps any answer of the Facebook Graph API (graph, rupload) that is not a success. */
export function facebookErrorFromResponse({ status, headers, body }: GraphFailure): PlatformError {
  const error = parseGraphError(body);
  const tokenRejected = error?.code !== undefined && GRAPH_TOKEN_CODES.has(error.code);
  const transient = !tokenRejected && isGraphTransient(status, error);
  const retryAfterMs = graphRetryAfterMs(headers);
  return new PlatformError(facebookReason(status, error, transient), {
    platform,
    transient,
    code: error?.code ?? `http_${status}`,
    subcode: error?.error_subcode,
    retryAfterMs,
    status,
    tokenRejected,
    throttle: graphThrottle(status, error, headers, retryAfterMs),
  });
}

export function facebookNetworkError({ timedOut, maybeDelivered, cause }: GraphNetworkFailure): PlatformError {
  const reason = timedOut
    ? 'Facebook did not answer in time; publishing will be tried again.'
    : maybeDelivered
      ? 'The connection to Facebook broke before it answered; publishing will be tried again.'
      : 'Facebook could not be reached; publishing will be tried again.';
  return new PlatformError(reason, { platform, transient: true, code: timedOut ? 'timeout' : maybeDelivered ? 'network_error' : 'unreachable', cause });
}

export const facebookErrorMapper: GraphErrorMapper = { fromResponse: facebookErrorFromResponse, fromNetwork: facebookNetworkError };

export function facebookInvalidInput(code: string, reason: string): PlatformError {
  return new PlatformError(reason, { platform, transient: false, code });
}

function facebookReason(status: number, error: GraphErrorBody | undefined, transient: boolean): string {
  const code = error?.code;
  const detail = cleanGraphMessage(error?.error_user_msg) ?? cleanGraphMessage(error?.message);
  if (!error) {
    if (transient) return `Facebook answered HTTP ${status} without details; publishing will be tried again.`;
    return `Facebook answered HTTP ${status} with a response Postbus could not read; check the Facebook API base URLs.`;
  }
  if (code !== undefined && GRAPH_TOKEN_CODES.has(code)) return FACEBOOK_TOKEN_REASON;
  if (isGraphPermissionCode(code)) {
    return 'Postbus is not allowed to publish to this Facebook Page (pages_manage_posts is missing, or the user lost the CREATE_CONTENT task); reconnect the Page and grant publishing access.';
  }
  if (code === 3) return 'The Facebook app is not enabled for this call; an operator must add the capability to the app.';
  if (code !== undefined && GRAPH_THROTTLE_CODES.has(code)) return 'Facebook is limiting how often this Page may be called; publishing will be tried again later.';
  if (code === 368) return 'Facebook has temporarily blocked this Page from posting for a policy reason; wait a few hours and try again.';
  if (code === 506) return 'Facebook refused the post as a duplicate of a recent one; change the text and try again.';
  if (code === 1609005) return 'Facebook could not read the link in the post; check that the URL is correct and publicly reachable.';
  if (error.message?.includes('reels') && error.message.includes('limit')) {
    return 'This Facebook Page has reached its limit of 30 API-published reels in 24 hours; publish it again later.';
  }
  if (transient) return `Facebook had a temporary problem${detail ? ` (${detail})` : ''}; publishing will be tried again.`;
  return detail
    ? `Facebook refused the post: ${/[.!?]$/.test(detail) ? detail : `${detail}.`}`
    : `Facebook refused the post without saying why (error ${code ?? status}); check the post's text and media.`;
}
