import { inspect } from 'node:util';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';

export const notFound: RequestHandler = (req) => {
  throw new AppError('not_found', `No route ${req.method} ${req.path}.`);
};

/** Express's body parsers name what went wrong with a body in the error's `type`. */
const bodyErrorType = (err: unknown): unknown =>
  typeof err === 'object' && err !== null && 'type' in err ? err.type : undefined;

/** An unexpected error for the log: its stack, or the thrown value itself when it is not an Error. */
const describe = (err: unknown): string => (err instanceof Error ? (err.stack ?? String(err)) : inspect(err));

/** Every error leaves as `{ error, code }` with the status the contracts table gives its code. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    let appError: AppError;
    const type = bodyErrorType(err);
    if (err instanceof AppError) appError = err;
    else if (type === 'entity.parse.failed')
      appError = new AppError('invalid_json', 'The request body is not valid JSON.');
    else if (type === 'entity.too.large') appError = new AppError('validation_error', 'The request body is too large.');
    else if (type === 'encoding.unsupported' || type === 'charset.unsupported')
      appError = new AppError('validation_error', 'Unsupported body encoding.');
    else {
      logger.error('unhandled error', { err: describe(err) });
      appError = new AppError('internal_error', 'Internal error.');
    }
    if (res.headersSent) return;
    if (appError.code === 'service_unavailable') res.setHeader('Retry-After', '1');
    res.status(appError.status).json(appError.toBody());
  };
}
