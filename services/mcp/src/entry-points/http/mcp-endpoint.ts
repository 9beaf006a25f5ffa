import type { Request, RequestHandler, Response } from 'express';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  classifyInboundRequest,
  createMcpHandler,
  type AuthInfo,
  type InboundClassificationOutcome,
  type Server,
} from '@modelcontextprotocol/server';
import type { Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import { bearerToken, type PostWaiters, type PrincipalCache } from '@postbus/service';
import { isAccountResource, scopeToRead } from '../../tools/resources';
import type { RegisteredTool } from '../../tools/tool-registry';
import { buildToolServer } from '../../tools/tool-server';
import { bodyLimitFor } from './body-limits';
import { readJsonBody } from './bounded-json-body';
import { resolvePrincipal } from './credentials';
import { sendJsonRpcError } from './json-rpc-refusal';

export interface McpEndpointDeps {
  rpc: RpcClient;
  cache: PrincipalCache;
  tools: Map<string, RegisteredTool>;
  logger: Logger;
  baseUrl: string;
  requireAuthForAll: boolean;
  outcomes: PostWaiters;
}

type JsonRpcMessage = {
  jsonrpc?: string;
  method?: string;
  id?: unknown;
  params?: { name?: string; uri?: string; _meta?: { progressToken?: unknown } };
};

/** Messages that act for the caller need credentials, whatever MCP_REQUIRE_AUTH_FOR_ALL says: a tool call, or reading a post or media (any other URI is not found for anyone). */
const actsForCaller = (m: JsonRpcMessage) =>
  m.method === 'tools/call' || (m.method === 'resources/read' && isAccountResource(m.params?.uri));

function messagesOf(body: unknown): JsonRpcMessage[] {
  // A batch may hold anything; only objects can be messages (the transport answers the rest as invalid).
  if (Array.isArray(body)) return body.filter((m): m is JsonRpcMessage => !!m && typeof m === 'object');
  return body && typeof body === 'object' ? [body] : [];
}

/** What an unauthenticated caller should ask the authorization server for to call tools. */
const TOOL_SCOPES = 'mcp:read mcp:write';

/**
 * The Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). A request that sent no credentials learns
 * the scope to ask for and no error code (§3.1); a rejected token learns invalid_token; a
 * credential without the tool's scope learns insufficient_scope with the scope it needs.
 */
function challenge(
  res: Response,
  baseUrl: string,
  status: 401 | 403,
  error: 'invalid_token' | 'insufficient_scope' | undefined,
  message: string,
  scope?: string,
): void {
  const parts: string[] = [];
  if (error) parts.push(`error="${error}"`);
  if (scope) parts.push(`scope="${scope}"`);
  parts.push(`resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/api/mcp"`);
  res.setHeader('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  res.status(status).json({ error: message, code: status === 401 ? 'missing_api_key' : 'insufficient_scope' });
}

/**
 * The 403 of a credential lacking a scope, naming what it holds and what this caller can get: an
 * API key holder a key with the REST scope, from settings (a key never holds mcp:* scopes); an
 * OAuth client the mcp:* scope to ask the authorization server for again.
 */
function refuseScope(res: Response, baseUrl: string, principal: Principal, needed: string, what: string): void {
  const held = principal.scopes.length ? principal.scopes.join(', ') : 'no scope';
  const message =
    principal.credential.type === 'oauth'
      ? `This access token holds ${held}; ${what} needs ${needed}: authorize again asking for ${needed}.`
      : `This API key holds ${held}; ${what} needs ${needed}: create a key with ${needed} at ${baseUrl}/settings.`;
  challenge(res, baseUrl, 403, 'insufficient_scope', message, needed);
}

/** Which credential scope lets this principal call the tool: the REST scope for keys, mcp:read/write for OAuth. */
function mayCall(principal: Principal, tool: RegisteredTool): { ok: boolean; needed: string } {
  if (!tool.route || !tool.tool) return { ok: true, needed: '' };
  const needed = principal.credential.type === 'oauth' ? tool.tool.oauthScope : tool.route.scope;
  return { ok: principal.scopes.includes(needed), needed };
}

/** The verified caller travels to the per-request server as the SDK's pass-through authInfo. */
function authInfoOf(req: Request, principal: Principal): AuthInfo {
  return {
    token: bearerToken(req) ?? '',
    clientId: principal.credential.id,
    scopes: principal.scopes,
    extra: { principal },
  };
}

export interface McpEndpoint {
  /** The express chain serving POST: identify the caller, read the body within its limit, gate, answer. */
  handlers: RequestHandler[];
  /** Aborts exchanges still in flight (after the listeners stopped accepting). */
  close(): Promise<void>;
}

/**
 * The SDK's own era decision (the step createMcpHandler takes first), so routing here never
 * disagrees with the modern handler: legacy, modern, or a rejection the modern handler answers.
 */
function classify(req: Request): InboundClassificationOutcome {
  // Transport-neutral classification (https://ts.sdk.modelcontextprotocol.io/v2/serving/legacy-clients).
  return classifyInboundRequest({
    httpMethod: req.method,
    protocolVersionHeader: req.get('mcp-protocol-version'),
    mcpMethodHeader: req.get('mcp-method'),
    mcpNameHeader: req.get('mcp-name'),
    body: req.body,
  });
}

/**
 * 2025-era requests (initialize, then plain JSON-RPC; revisions 2025-06-18 and 2025-11-25): a
 * fresh server and stateless transport per request answering JSON, as before 2026-07-28.
 */
async function serveLegacy(req: Request, res: Response, server: Server): Promise<void> {
  // Stateless legacy serving (https://ts.sdk.modelcontextprotocol.io/v2/serving/legacy-clients).
  // A request asking for progress is answered as an event stream, which can carry the notifications before the result.
  const wantsProgress = messagesOf(req.body).some((m) => m.params?._meta?.progressToken !== undefined);
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !wantsProgress,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/**
 * One endpoint for every revision the SDK serves: 2025-06-18 and 2025-11-25 (initialize, then
 * requests) and the stateless 2026-07-28 (server/discover, the protocol version in each request's
 * `_meta`, Mcp-Method/Mcp-Name headers checked against the body), a fresh server per request,
 * behind our own door: the caller is identified first, so the body limit fits it (bodyLimitFor);
 * then the body is read. initialize, server/discover and the lists answer anonymously (unless
 * MCP_REQUIRE_AUTH_FOR_ALL); a tools/call or resources/read without valid credentials is refused
 * with 401 and the resource-metadata challenge.
 */
export function mcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const onerror = (err: Error) => deps.logger.warn('mcp request refused or failed', { err: err.message });
  // The 2026-07-28 leg; 2025-era requests are routed to serveLegacy before it (https://ts.sdk.modelcontextprotocol.io/v2/serving/http).
  const modern = createMcpHandler(
    ({ authInfo }) => buildToolServer(deps, authInfo?.extra?.principal as Principal | undefined),
    { legacy: 'reject', onerror },
  );
  const serveModern = toNodeHandler(modern, { onerror });
  const identify: RequestHandler = async (req, res, next) => {
    res.locals.principal = await resolvePrincipal(req, {
      rpc: deps.rpc,
      cache: deps.cache,
      resource: `${deps.baseUrl}/api/mcp`,
    });
    next();
  };
  const answer: RequestHandler = async (req: Request, res: Response) => {
    const principal = res.locals.principal as Principal | undefined;
    const era = classify(req);
    // A malformed 2026-07-28 request (headers disagreeing with the body, a bad _meta envelope) is
    // answered 400 by the SDK before any handler runs, whoever sends it: nothing is called.
    if (era.kind === 'reject') return serveModern(req, res, req.body);
    const messages = messagesOf(req.body);
    const needsAuth = deps.requireAuthForAll || messages.some(actsForCaller);
    if (needsAuth && !principal) {
      return bearerToken(req)
        ? challenge(res, deps.baseUrl, 401, 'invalid_token', 'A valid API key or OAuth access token is required.')
        : challenge(res, deps.baseUrl, 401, undefined, 'An API key or OAuth access token is required.', TOOL_SCOPES);
    }
    if (principal) {
      for (const m of messages) {
        if (m.method === 'resources/read') {
          const needed = scopeToRead(String(m.params?.uri), principal);
          if (needed && !principal.scopes.includes(needed))
            return refuseScope(res, deps.baseUrl, principal, needed, `reading ${m.params?.uri}`);
          continue;
        }
        if (m.method !== 'tools/call') continue;
        const tool = deps.tools.get(String(m.params?.name));
        if (!tool) continue;
        const { ok, needed } = mayCall(principal, tool);
        if (!ok) return refuseScope(res, deps.baseUrl, principal, needed, tool.name);
      }
    }
    if (era.kind === 'legacy') return serveLegacy(req, res, buildToolServer(deps, principal));
    await serveModern(Object.assign(req, principal && { auth: authInfoOf(req, principal) }), res, req.body);
  };
  return {
    handlers: [identify, readJsonBody((res) => bodyLimitFor(res.locals.principal as Principal | undefined)), answer],
    close: () => modern.close(),
  };
}

/** Stateless: there is no server-initiated stream and no session to end. */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  sendJsonRpcError(res, 405, -32000, 'Method not allowed: this endpoint is stateless; POST JSON-RPC messages.');
};
