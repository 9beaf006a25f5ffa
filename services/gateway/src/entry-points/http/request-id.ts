import type { RequestHandler } from 'express';
import { newRequestId, runWithContext } from '@postbus/kit';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Accepts a caller's X-Request-Id (when sane) or makes one; it follows the request through every RPC. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header('x-request-id');
  const id = given && SAFE_ID.test(given) ? given : newRequestId();
  res.setHeader('X-Request-Id', id);
  runWithContext({ requestId: id }, () => next());
};
