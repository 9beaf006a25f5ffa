import { JSON_ROUTES } from './support';
import { probeRoutes } from './probe-routes';

/** Every JSON route without a body (GET, DELETE): hostile queries and path parameters. */
probeRoutes(
  'hostile_reads',
  JSON_ROUTES.filter((r) => r.method === 'get' || r.method === 'delete'),
  16,
);
