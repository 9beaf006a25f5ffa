import { createReadStream } from 'node:fs';
import { Router } from 'express';
import { buildOpenApi } from '@postbus/contracts';

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

function docsPage(baseUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Postbus API reference</title>
  <style>body { margin: 0; }</style>
</head>
<body>
  <redoc spec-url="${baseUrl}/openapi.json" hide-download-button="false"></redoc>
  <noscript>This reference needs JavaScript; the machine-readable description is at <a href="${baseUrl}/openapi.json">/openapi.json</a>.</noscript>
  <script src="${baseUrl}/docs/api/redoc.standalone.js"></script>
</body>
</html>`;
}

/** openapi.json, the RFC 9727 API catalog and the human reference rendered from the same description. */
export function discoveryRouter(publicBaseUrl: () => string): Router {
  const router = Router();
  let cached: { base: string; body: string } | undefined;
  const openapi = () => {
    const base = publicBaseUrl();
    if (cached?.base !== base) cached = { base, body: JSON.stringify(buildOpenApi({ baseUrl: base })) };
    return cached.body;
  };

  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.type('application/json').send(openapi());
  });

  router.get('/.well-known/api-catalog', (_req, res) => {
    const base = publicBaseUrl();
    res.setHeader('Link', `<${base}/.well-known/api-catalog>; rel="api-catalog"`);
    res.type('application/linkset+json').send(
      JSON.stringify({
        linkset: [
          {
            anchor: `${base}/api/v1`,
            'service-desc': [{ href: `${base}/openapi.json`, type: 'application/openapi+json;version=3.1' }],
            'service-doc': [{ href: `${base}/docs/api`, type: 'text/html' }],
            status: [{ href: `${base}/api/health`, type: 'application/json' }],
          },
        ],
      }),
    );
  });

  router.get('/docs/api', (_req, res) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' 'unsafe-eval' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline' https:; img-src 'self' data: https:; font-src 'self' data: https:",
    );
    res.type('html').send(docsPage(publicBaseUrl()));
  });
  router.get('/docs/api/redoc.standalone.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('application/javascript');
    createReadStream(REDOC_BUNDLE).pipe(res);
  });
  return router;
}
