import type { Request, Response } from 'express';
import type { RpcClient } from '@postbus/bus';
import type { Principal, RouteDef } from '@postbus/contracts';

/** A request as a binding reads it: its JSON body is whatever was sent, checked by the RPC's contract. */
export type BindingRequest = Request<Request['params'], unknown, unknown>;

/**
 * How a route's HTTP request becomes its RPC input, and its answer becomes the body. `reply` and
 * `version` take the RPC's output, typed by the binding as its route's `RpcOutput`.
 */
export interface RouteBinding {
  route: RouteDef;
  input(req: BindingRequest): unknown;
  /** Status and body from the RPC's data (default: route.status and the data as is). */
  reply?(data: unknown): { status: number; body: unknown };
  /** Deadline of the RPC when the default RPC_TIMEOUT_MS is too short (e.g. a link import). */
  timeoutMs?: number;
  /** Answers the request itself, for routes whose answer is not one RPC's JSON data (CSV bodies, exports paged through the list). */
  serve?(ctx: { rpc: RpcClient; principal: Principal; req: BindingRequest; res: Response }): Promise<void>;
  /** The fields of a 200 answer that make its version: the answer carries an ETag and meets If-None-Match with 304. */
  version?(body: unknown): unknown;
  /** The route takes ?waitFor=final&timeout= and waits for the post's outcome (GET /api/v1/posts/{id}). */
  waitsForOutcome?: boolean;
}

/** /api/v1/posts/{id} → /api/v1/posts/:id */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
