import type { RequestHandler } from 'express';
import { newRequestId, runWithContext } from '@postbus/kit';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Carries the gateway's X-Request-Id (or a new one) through logs and the RPCs this request makes. */
export const requestContext: RequestHandler = (req, res, next) => {
  const given = req.header('x-request-id');
  const id = given && SAFE_ID.test(given) ? given : newRequestId();
  res.setHeader('X-Request-Id', id);
  runWithContext({ requestId: id }, () => next());
};
