import type { RequestHandler } from 'express';
import { isAllowedHost, isAllowedOrigin, type CallerOriginPolicy } from './caller-origin.policy';
import { refuseUnread } from './json-rpc-refusal';

/**
 * DNS-rebinding protection for an agent endpoint, before credentials are looked up or a body is
 * read: the host the client addressed (X-Forwarded-Host when a proxy such as the gateway or the
 * ingress sets it, Host otherwise) must be one of ours, and a browser's Origin, when sent, must be
 * allowed. Both refusals are 403, as the MCP transport requires for an invalid Origin.
 */
export function refuseForeignCallers(policy: CallerOriginPolicy): RequestHandler {
  return (req, res, next) => {
    const forwarded = req.headers['x-forwarded-host'];
    const host = forwarded === undefined ? req.headers.host : String(forwarded).split(',')[0];
    if (!isAllowedHost(policy, host))
      return refuseUnread(req, res, 403, 'Forbidden: this server does not answer for that Host');
    const origin = req.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(policy, origin))
      return refuseUnread(req, res, 403, 'Forbidden: requests from that Origin are not allowed');
    next();
  };
}
