import type { Logger } from '@postbus/kit';
import type { ErrorRequestHandler, Response } from 'express';
import type { FaultOperation } from '../faults';
import type { SandboxState } from '../state';

/** An XRPC error answer, `{ error, message }`: https://atproto.com/specs/xrpc#error-responses */
export class XrpcError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Sends an XRPC answer, unless a timeout fault asked for the answer to be lost (the work is done, the caller never hears). */
export function sendXrpc(state: SandboxState, res: Response, body: unknown): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  res.status(200).json(body);
}

/**
 * Consumes a queued Bluesky fault for this call. `error` answers the fault's status (400 by
 * default) with `reason` as the XRPC error name; `throttle` answers 429 RateLimitExceeded with
 * the ratelimit-* headers a PDS sends (https://docs.bsky.app/docs/advanced-guides/rate-limits);
 * `timeout` holds the request, or lets it run and drops the answer (applied, the default).
 * Answers false when the request is already dealt with.
 */
export function passXrpcFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>, res: Response): boolean {
  const fault = state.faults.take('bluesky', operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (fault.applied) {
      res.locals.swallowAnswer = true;
      return true;
    }
    state.held.hold(res);
    return false;
  }
  if (fault.mode === 'throttle') {
    const reset = Math.ceil(state.now() / 1000) + 60;
    throw new XrpcError(
      fault.status ?? 429,
      fault.reason ?? 'RateLimitExceeded',
      fault.message ?? 'Rate Limit Exceeded',
      {
        'ratelimit-limit': '5000',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(reset),
        'ratelimit-policy': '5000;w=3600',
      },
    );
  }
  const status = fault.status ?? 400;
  throw new XrpcError(
    status,
    fault.reason ?? (status >= 500 ? 'InternalServerError' : 'InvalidRequest'),
    fault.message ?? (status >= 500 ? 'Internal Server Error' : 'Injected failure'),
  );
}

/** Every error leaves as an XRPC error body; a body that does not parse is InvalidRequest, a bug InternalServerError. */
export function xrpcErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    let e: XrpcError;
    if (err instanceof XrpcError) e = err;
    else if ((err as { type?: string })?.type === 'entity.parse.failed')
      e = new XrpcError(400, 'InvalidRequest', 'Request body is not valid JSON');
    else if ((err as { type?: string })?.type === 'entity.too.large')
      e = new XrpcError(413, 'PayloadTooLarge', 'request entity too large');
    else {
      logger.error('unexpected sandbox error', { err: (err as Error)?.stack ?? String(err) });
      e = new XrpcError(500, 'InternalServerError', 'Internal Server Error');
    }
    res.status(e.status).set(e.headers).json({ error: e.error, message: e.message });
  };
}
