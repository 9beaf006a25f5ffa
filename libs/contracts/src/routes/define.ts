import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors';
import type { Scope } from '../principal';
import type { RpcDef } from '../rpc';

/** One REST endpoint: the single place naming its path, scope, RPC and bodies. */
export interface RouteDef {
  id: string;
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** OpenAPI-style path, e.g. /api/v1/posts/{id}. */
  path: string;
  scope: Scope;
  summary: string;
  /** The RPC behind the route; absent for paths the gateway streams to their service (proxied). */
  rpc: RpcDef;
  body?: TSchema;
  /** Default application/json; multipart/form-data for uploads. */
  bodyContentType?: string;
  /** Request headers the route reads (e.g. Idempotency-Key). */
  headers?: { name: string; description: string }[];
  /** Error codes the route answers with, when the default list (auth, validation, not_found) is not exact. */
  errors?: ErrorCode[];
  /** Served by streaming to the owning service's HTTP listener rather than over RPC. */
  proxied?: boolean;
  /** Query parameters, as an object schema. */
  query?: TSchema;
  response: TSchema;
  /** Success status; creates answer 201 (200 when an earlier identical request is replayed). */
  status: number;
  /** The MCP tool that is this route's twin (the mcp service lists every route that has one). */
  tool?: ToolDef;
}

/** An agent tool over the same RPC as its REST twin. */
export interface ToolDef {
  /** `svc_…` */
  name: string;
  /** A few words a person reads in a tool picker (MCP `title`). */
  title?: string;
  description: string;
  /** JSON Schema of the tool's arguments (an object). */
  input: TSchema;
  /** Tool arguments (an object, checked against `input` unless validateInput is false) → the RPC input the REST twin would send. */
  toRpc(args: Record<string, unknown>): unknown;
  /** The RPC's output → the tool's structured result (default: as is). */
  fromRpc?(data: unknown): unknown;
  /** JSON Schema of the structured result (default: the route's response). */
  output?: TSchema;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** RPC deadline of the call when the default is too short (e.g. a link import). */
  timeoutMs?: number;
  /** False when the service applies the REST rules (and their specific codes) to the arguments itself. */
  validateInput?: boolean;
  /** OAuth scope an `oauth` principal needs: mcp:read for reads, mcp:write for the rest. */
  oauthScope: 'mcp:read' | 'mcp:write';
}

export const ErrorBodySchema = Type.Object({
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Unknown()),
});
