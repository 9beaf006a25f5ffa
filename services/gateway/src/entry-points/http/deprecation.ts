import type { RequestHandler } from 'express';
import { LEGACY_WEBHOOK_ACCESS } from '@postbus/contracts';

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * When the caller reaches a route only through a scope it holds for a deprecation period (an
 * older key's webhook access through post:read), the answer says so, errors included: RFC 9745
 * `Deprecation`, RFC 8594 `Sunset`, and a `Link` to where the change is described.
 */
export function deprecationNotice(scope: string, publicBaseUrl: () => string): RequestHandler {
  return (req, res, next) => {
    const principal = req.user;
    if (principal?.deprecatedScopes?.includes(scope)) {
      res.setHeader('Deprecation', `@${unixSeconds(LEGACY_WEBHOOK_ACCESS.deprecatedAt)}`);
      res.setHeader('Sunset', new Date(LEGACY_WEBHOOK_ACCESS.sunset).toUTCString());
      res.setHeader(
        'Link',
        `<${publicBaseUrl()}${LEGACY_WEBHOOK_ACCESS.docsPath}>; rel="deprecation"; type="text/html"`,
      );
    }
    next();
  };
}
