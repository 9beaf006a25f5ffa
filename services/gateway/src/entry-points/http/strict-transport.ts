import type { RequestHandler } from 'express';

/** A year, the figure HSTS preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Under an https {base_url}, every answer (pages, OAuth, the API) tells browsers to come back over
 * https only, so a session cookie never rides a downgraded request. Decided by PUBLIC_BASE_URL,
 * not by the request: behind a proxy that terminates TLS the last hop is plain http.
 */
export function strictTransportSecurity(publicBaseUrl: () => string): RequestHandler {
  return (_req, res, next) => {
    if (publicBaseUrl().startsWith('https:')) res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}
