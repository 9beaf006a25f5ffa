import type { Request } from 'express';
import type { RouteDef } from '@postbus/contracts';

/** How a route's HTTP request becomes its RPC input, and its answer becomes the body. */
export interface RouteBinding {
  route: RouteDef;
  input(req: Request): unknown;
  /** Status and body from the RPC's data (default: route.status and the data as is). */
  reply?(data: any): { status: number; body: unknown };
  /** Deadline of the RPC when the default RPC_TIMEOUT_MS is too short (e.g. a link import). */
  timeoutMs?: number;
}

/** /api/v1/posts/{id} → /api/v1/posts/:id */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
