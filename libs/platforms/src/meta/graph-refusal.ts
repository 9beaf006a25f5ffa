import type { Platform } from '@postbus/contracts';
import { PlatformError, type PlatformThrottle } from '../errors';
import {
  GRAPH_TOKEN_CODES,
  graphRetryAfterMs,
  isGraphTransient,
  parseGraphError,
  type GraphErrorBody,
} from './graph-error';
import { graphRefusalReason, type GraphWording } from './graph-failures';
import type { GraphFailure } from './graph-request';
import { graphThrottle } from './graph-usage';

/** A Meta answer that is not a success, read as every Meta platform reads it. */
export interface GraphRefusal extends GraphFailure {
  /** Graph's `error` object, when the body had one. */
  error: GraphErrorBody | undefined;
  /** Codes 102 and 190: the token is invalid or expired. */
  tokenRejected: boolean;
  retryAfterMs: number | undefined;
}

export function readGraphRefusal(failure: GraphFailure): GraphRefusal {
  const error = parseGraphError(failure.body);
  return {
    ...failure,
    error,
    tokenRejected: error?.code !== undefined && GRAPH_TOKEN_CODES.has(error.code),
    retryAfterMs: graphRetryAfterMs(failure.headers),
  };
}

/** What the platform made of a refusal: the sentence, whether to retry, and the throttle it announces. */
export interface GraphVerdict {
  reason: string;
  transient: boolean;
  throttle: PlatformThrottle | undefined;
}

/** The PlatformError for a refusal: the platform's verdict, with Graph's code, subcode, status and wait. */
export function graphRefusalError(platform: Platform, refusal: GraphRefusal, verdict: GraphVerdict): PlatformError {
  const { error, status } = refusal;
  return new PlatformError(verdict.reason, {
    platform,
    transient: verdict.transient,
    code: error?.code ?? `http_${status}`,
    subcode: error?.error_subcode,
    retryAfterMs: refusal.retryAfterMs,
    status,
    tokenRejected: refusal.tokenRejected,
    throttle: verdict.throttle,
  });
}

/** How a Meta platform that has no refusal rules beyond its wording reads one. */
export interface GraphRefusalRules {
  wording: GraphWording;
  /** Whether to retry; by default Graph's transient rule, and never when the token was rejected. */
  transient?(refusal: GraphRefusal): boolean;
  /** The window the platform counts calls over, when it is not Graph's hour. */
  throttleWindowMs?: number;
}

/** Maps any answer of a Meta platform that is not a success, by Graph's shared rules and the platform's wording. */
export function graphErrorFromResponse(
  platform: Platform,
  rules: GraphRefusalRules,
): (failure: GraphFailure) => PlatformError {
  return (failure) => {
    const refusal = readGraphRefusal(failure);
    const { status, headers, error, retryAfterMs } = refusal;
    const transient = rules.transient
      ? rules.transient(refusal)
      : !refusal.tokenRejected && isGraphTransient(status, error);
    return graphRefusalError(platform, refusal, {
      reason: graphRefusalReason(rules.wording, status, error, transient),
      transient,
      throttle: graphThrottle(status, error, headers, retryAfterMs, rules.throttleWindowMs),
    });
  };
}
