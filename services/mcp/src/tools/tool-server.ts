import { Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { Rpc, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import { callTool, type Invoke } from './call-tool';
import { waitForFinal, type PostWaiters } from '@postbus/service';
import { readResource, RESOURCE_TEMPLATES } from './resources';
import { iconsOf } from '../entry-points/http/icon';
import { listEntry, type RegisteredTool } from './tool-registry';
import { newListed } from './tool-presentation';

export const SERVER_INFO = { name: 'postbus', title: 'Postbus', version: '1.0.0' };

/** The lists (tools, resource templates) are the same for every caller and change only with a release: shared caches may keep them as long as the server card. */
const LIST_CACHE = { ttlMs: 300_000, cacheScope: 'public' } as const;

export interface ToolServerDeps {
  rpc: RpcClient;
  tools: Map<string, RegisteredTool>;
  baseUrl: string;
  /** Where svc_get_post_status waits for a post's outcome event. */
  outcomes: PostWaiters;
}

/** The listed tools, built once per registry: the list is the same for every caller and request. */
const listings = new WeakMap<Map<string, RegisteredTool>, unknown[]>();
export function listedTools(deps: Pick<ToolServerDeps, 'tools'>): unknown[] {
  let tools = listings.get(deps.tools);
  if (!tools) {
    const ctx = { listed: newListed() };
    listings.set(deps.tools, (tools = [...deps.tools.values()].map((t) => listEntry(t, ctx))));
  }
  return tools;
}

/**
 * The MCP server one request is answered by, for every protocol revision: the tools of the
 * registry, each run as its REST twin with the caller's principal (undefined: anonymous, which
 * may list but never call). The low-level Server, since the tool set comes from contracts as JSON
 * Schema and dispatch is ours (https://ts.sdk.modelcontextprotocol.io/v2/advanced/low-level-server).
 */
export function buildToolServer(deps: ToolServerDeps, principal: Principal | undefined): Server {
  const server = new Server(
    { ...SERVER_INFO, icons: iconsOf(deps.baseUrl), websiteUrl: deps.baseUrl },
    {
      capabilities: { tools: { listChanged: false }, resources: {} },
      instructions: INSTRUCTIONS,
      // ttlMs/cacheScope on the 2026-07-28 cacheable results (https://ts.sdk.modelcontextprotocol.io/v2/migration/support-2026-07-28#cache-fields-and-cache-hints).
      cacheHints: {
        'tools/list': LIST_CACHE,
        'server/discover': LIST_CACHE,
        'resources/list': LIST_CACHE,
        'resources/templates/list': LIST_CACHE,
      },
    },
  );
  server.setRequestHandler('tools/list', () => ({ tools: listedTools(deps) as never }));
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    // Credentials were checked before the SDK saw the request; this is a second guard.
    if (!principal) throw new Error('unauthenticated');
    const { name, arguments: args } = request.params;
    const invoke =
      name === WAITING_TOOL && typeof args?.waitSeconds === 'number'
        ? waitingInvoke(deps, principal, request.params._meta?.progressToken, ctx)
        : undefined;
    return callTool(deps.rpc, deps.tools.get(name), name, args, principal, invoke);
  });
  // Posts and media are read through templates; nothing is listed (an account may hold thousands).
  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler('resources/read', (request) => readResource(deps.rpc, principal, request.params.uri));
  return server;
}

const INSTRUCTIONS = [
  "Schedule and publish social posts to the account's connected social profiles.",
  'svc_list_profiles lists them with their ids; for media, svc_create_upload_url (then PUT the file to uploadUrl) or svc_add_media_from_url;',
  'svc_schedule_post creates posts; svc_get_post_status with waitSeconds waits for the outcome (posted or failed).',
].join(' ');

/** The tool that can wait for a post's outcome (its waitSeconds argument). */
const WAITING_TOOL = 'svc_get_post_status';
/** A progress notification this often while a wait goes on, so the client knows the call is alive. */
const HEARTBEAT_MS = 5_000;

/**
 * svc_get_post_status with waitSeconds: the bounded wait of GET /api/v1/posts/{id}?waitFor=final,
 * reporting each status it sees as progress when the client sent a progressToken (elapsed seconds
 * of the wait; the total is the wait asked for). Without a token it answers only at the end.
 */
function waitingInvoke(
  deps: ToolServerDeps,
  principal: Principal,
  progressToken: string | number | undefined,
  ctx: ServerContext,
): Invoke {
  return async (rpcInput, args) => {
    const waitSeconds = args.waitSeconds as number;
    // Progress must grow with every notification: a report that would not is left out.
    let last = -1;
    const report =
      progressToken === undefined
        ? undefined
        : (post: { status: string }, elapsedMs: number) => {
            const progress = Math.min(waitSeconds, Math.round(elapsedMs / 100) / 10);
            if (progress <= last) return;
            last = progress;
            const params = { progressToken, progress, total: waitSeconds, message: `Post is ${post.status}.` };
            void ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
          };
    const postId = (rpcInput as { id: string }).id;
    const read = () => deps.rpc.call(Rpc.postsGet, { id: postId }, principal);
    const outcome = await waitForFinal(deps.outcomes, {
      postId,
      waitMs: waitSeconds * 1000,
      read,
      report,
      heartbeatMs: HEARTBEAT_MS,
      signal: ctx.mcpReq.signal,
    });
    // Undefined only when the client cancelled: what it is sent no longer matters.
    return outcome?.post ?? read();
  };
}
