import type { Request, RequestHandler, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import { bearerToken, type PrincipalCache } from '@postbus/service';
import { callTool } from '../tools/call-tool';
import { listEntry, type RegisteredTool } from '../tools/tool-registry';
import { bodyLimitFor } from './body-limits';
import { readJsonBody } from './bounded-json-body';
import { resolvePrincipal } from './credentials';
import { sendJsonRpcError } from './json-rpc-refusal';

export const SERVER_INFO = { name: 'postbus', version: '1.0.0' };

export interface McpEndpointDeps {
  rpc: RpcClient;
  cache: PrincipalCache;
  tools: Map<string, RegisteredTool>;
  logger: Logger;
  baseUrl: string;
  requireAuthForAll: boolean;
}

type JsonRpcMessage = { jsonrpc?: string; method?: string; id?: unknown; params?: { name?: string } };

function messagesOf(body: unknown): JsonRpcMessage[] {
  // A batch may hold anything; only objects can be messages (the transport answers the rest as invalid).
  if (Array.isArray(body)) return body.filter((m): m is JsonRpcMessage => !!m && typeof m === 'object');
  return body && typeof body === 'object' ? [body as JsonRpcMessage] : [];
}

/** What an unauthenticated caller should ask the authorization server for to call tools. */
const TOOL_SCOPES = 'mcp:read mcp:write';

/**
 * The Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). A request that sent no credentials learns
 * the scope to ask for and no error code (§3.1); a rejected token learns invalid_token; a
 * credential without the tool's scope learns insufficient_scope with the scope it needs.
 */
function challenge(res: Response, baseUrl: string, status: 401 | 403, error: 'invalid_token' | 'insufficient_scope' | undefined, message: string, scope?: string): void {
  const parts: string[] = [];
  if (error) parts.push(`error="${error}"`);
  if (scope) parts.push(`scope="${scope}"`);
  parts.push(`resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/api/mcp"`);
  res.setHeader('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  res.status(status).json({ error: message, code: status === 401 ? 'missing_api_key' : 'insufficient_scope' });
}

/** Which credential scope lets this principal call the tool: the REST scope for keys, mcp:read/write for OAuth. */
function mayCall(principal: Principal, tool: RegisteredTool): { ok: boolean; needed: string } {
  if (!tool.route || !tool.tool) return { ok: true, needed: '' };
  const needed = principal.credential.type === 'oauth' ? tool.tool.oauthScope : tool.route.scope;
  return { ok: principal.scopes.includes(needed), needed };
}

function buildServer(deps: McpEndpointDeps, principal: Principal | undefined): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: 'Schedule and publish social posts to Instagram, TikTok, YouTube, Threads and Facebook. Call svc_list_profiles for profile ids, svc_schedule_post to create posts, then svc_get_post_status until posted or failed.',
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...deps.tools.values()].map(listEntry) as never }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    // Credentials were checked before the transport saw the request; this is a second guard.
    if (!principal) throw new Error('unauthenticated');
    const tool = deps.tools.get(request.params.name);
    return callTool(deps.rpc, tool, request.params.name, request.params.arguments, principal) as never;
  });
  return server;
}

/**
 * Stateless streamable HTTP: a fresh server and transport per request, JSON responses.
 * The caller is identified first, so the body limit fits it (bodyLimitFor); then the body is read.
 * initialize and tools/list answer anonymously (unless MCP_REQUIRE_AUTH_FOR_ALL); a tools/call
 * without valid credentials is refused with 401 and the resource-metadata challenge.
 */
export function mcpEndpoint(deps: McpEndpointDeps): RequestHandler[] {
  const identify: RequestHandler = async (req, res, next) => {
    res.locals.principal = await resolvePrincipal(req, { rpc: deps.rpc, cache: deps.cache, resource: `${deps.baseUrl}/api/mcp` });
    next();
  };
  const answer: RequestHandler = async (req: Request, res: Response) => {
    const principal = res.locals.principal as Principal | undefined;
    const messages = messagesOf(req.body);
    const needsAuth = deps.requireAuthForAll || messages.some((m) => m.method === 'tools/call');
    if (needsAuth && !principal) {
      return bearerToken(req)
        ? challenge(res, deps.baseUrl, 401, 'invalid_token', 'A valid API key or OAuth access token is required.')
        : challenge(res, deps.baseUrl, 401, undefined, 'An API key or OAuth access token is required.', TOOL_SCOPES);
    }
    if (principal) {
      for (const m of messages) {
        if (m.method !== 'tools/call') continue;
        const tool = deps.tools.get(String(m.params?.name));
        if (!tool) continue;
        const { ok, needed } = mayCall(principal, tool);
        if (!ok) return challenge(res, deps.baseUrl, 403, 'insufficient_scope', `This credential lacks the ${needed} scope needed by ${tool.name}.`, needed);
      }
    }
    const server = buildServer(deps, principal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
  return [identify, readJsonBody((res) => bodyLimitFor(res.locals.principal)), answer];
}

/** Stateless: there is no server-initiated stream and no session to end. */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  sendJsonRpcError(res, 405, -32000, 'Method not allowed: this endpoint is stateless; POST JSON-RPC messages.');
};
