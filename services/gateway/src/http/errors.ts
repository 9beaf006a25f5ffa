import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';

export const notFound: RequestHandler = (req) => {
  throw new AppError('not_found', `No route ${req.method} ${req.path}.`);
};

/** Every error leaves as `{ error, code }` with the status the contracts table gives its code. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    let appError: AppError;
    if (err instanceof AppError) appError = err;
    else if (err?.type === 'entity.parse.failed') appError = new AppError('invalid_json', 'The request body is not valid JSON.');
    else if (err?.type === 'entity.too.large') appError = new AppError('validation_error', 'The request body is too large.');
    else if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') appError = new AppError('validation_error', 'Unsupported body encoding.');
    else {
      logger.error('unhandled error', { err: err?.stack ?? String(err) });
      appError = new AppError('internal_error', 'Internal error.');
    }
    if (res.headersSent) return;
    if (appError.code === 'service_unavailable') res.setHeader('Retry-After', '1');
    res.status(appError.status).json(appError.toBody());
  };
}
