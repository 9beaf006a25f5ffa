import { JSON_ROUTES } from './support';
import { probeRoutes } from './probe-routes';

/** Every JSON route that takes a body (POST, PUT, PATCH): hostile bodies, queries and path parameters. */
probeRoutes(
  'hostile_writes',
  JSON_ROUTES.filter((r) => r.method === 'post' || r.method === 'put' || r.method === 'patch'),
  20,
);
