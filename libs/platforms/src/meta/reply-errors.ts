import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import {
  GRAPH_THROTTLE_CODES,
  GRAPH_TOKEN_CODES,
  cleanGraphMessage,
  graphRetryAfterMs,
  isGraphPermissionCode,
  isGraphTransient,
  parseGraphError,
} from './graph-error';
import type { GraphErrorMapper, GraphFailure, GraphNetworkFailure } from './graph-request';

const NAMES: Partial<Record<Platform, string>> = { instagram: 'Instagram', facebook: 'Facebook', threads: 'Threads' };

/**
 * Errors of a reply to a comment (public reply or private message) or of a comment on a Meta
 * platform, worded for the automation activity log or the post's first comment. A call that may have reached the platform without an answer is
 * `outcomeUnknown`: sending it again could answer the comment twice.
 */
export function metaReplyErrorMapper(platform: Platform, what: 'reply' | 'comment' = 'reply'): GraphErrorMapper {
  const name = NAMES[platform] ?? platform;
  return {
    platform,
    fromResponse({ status, headers, body }: GraphFailure): PlatformError {
      const error = parseGraphError(body);
      const tokenRejected = error?.code !== undefined && GRAPH_TOKEN_CODES.has(error.code);
      const transient = !tokenRejected && isGraphTransient(status, error);
      const detail = cleanGraphMessage(error?.error_user_msg) ?? cleanGraphMessage(error?.message);
      let reason: string;
      if (tokenRejected) reason = `The ${name} access token is invalid or expired; reconnect the profile.`;
      else if (isGraphPermissionCode(error?.code))
        reason = `Postbus may not answer comments on this ${name} account (the comment or messaging permission is missing); reconnect the profile and grant it.`;
      else if (error?.code !== undefined && GRAPH_THROTTLE_CODES.has(error.code))
        reason = `${name} is limiting how often this account may be called; the ${what} will be tried again.`;
      else if (transient)
        reason = `${name} had a temporary problem${detail ? ` (${detail})` : ''}; the ${what} will be tried again.`;
      else
        reason = detail
          ? `${name} refused the ${what}: ${/[.!?]$/.test(detail) ? detail : `${detail}.`}`
          : `${name} refused the ${what} (HTTP ${status}).`;
      return new PlatformError(reason, {
        platform,
        transient,
        code: error?.code ?? `http_${status}`,
        subcode: error?.error_subcode,
        retryAfterMs: graphRetryAfterMs(headers),
        status,
        tokenRejected,
      });
    },
    fromNetwork({ timedOut, maybeDelivered, cause }: GraphNetworkFailure): PlatformError {
      const reason = timedOut
        ? `${name} did not answer the ${what} in time; it may or may not have been posted.`
        : maybeDelivered
          ? `The connection to ${name} broke before it answered the ${what}; it may or may not have been posted.`
          : `${name} could not be reached; the ${what} will be tried again.`;
      return new PlatformError(reason, {
        platform,
        transient: true,
        outcomeUnknown: maybeDelivered,
        code: timedOut ? 'timeout' : maybeDelivered ? 'network_error' : 'unreachable',
        cause,
      });
    },
  };
}

/** The id a Graph answer carries in `field`, or a PlatformError saying the answer was unreadable. */
export function replyIdFrom(platform: Platform, body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  throw new PlatformError(`${NAMES[platform] ?? platform} accepted the reply but answered without its id.`, {
    platform,
    transient: false,
    code: 'unreadable_answer',
  });
}
