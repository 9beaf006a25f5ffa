import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MulterError } from 'multer';
import { AppError } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';

export const notFound: RequestHandler = (req) => {
  throw new AppError('not_found', `No route ${req.method} ${req.path}.`);
};

/** Multer's and busboy's refusals in the API's words; any other failure is passed on (as an Error). */
export function fromMultipartError(err: unknown): Error {
  if (err instanceof MulterError) {
    if (err.code === 'LIMIT_UNEXPECTED_FILE')
      return new AppError('missing_file', `Send the file in the multipart field "file" (got "${err.field}").`);
    if (err.code === 'LIMIT_FILE_COUNT') return new AppError('validation_error', 'Send one file per upload.');
    return new AppError('validation_error', `The multipart body was refused: ${err.message}.`);
  }
  if (err instanceof Error && /multipart|boundary|unexpected end of form|malformed/i.test(err.message)) {
    return new AppError('validation_error', `The multipart body is malformed: ${err.message}.`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** Every error leaves as `{ error, code }` with the status the contracts table gives its code. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let appError: AppError;
    if (err instanceof AppError) appError = err;
    else if (req.socket?.destroyed || res.destroyed)
      return; // the client went away; nothing to answer
    else {
      logger.error('unhandled error', { err: (err instanceof Error ? err.stack : undefined) ?? String(err) });
      appError = new AppError('internal_error', 'Internal error.');
    }
    if (res.headersSent) return void res.destroy();
    if (!req.complete) req.resume(); // refused before the body was read: let it drain
    if (appError.code === 'service_unavailable') res.setHeader('Retry-After', '1');
    res.status(appError.status).json(appError.toBody());
  };
}
