import { Type } from '@sinclair/typebox';
import { MCP_TOOL_NAMES, Routes, type RouteDef, type ToolDef } from '@postbus/contracts';
import { presentInput, presentOutput, type Listed } from './tool-presentation';

export interface RegisteredTool {
  name: string;
  /** The REST twin; absent while the capability is not built, and the tool answers not_available. */
  route?: RouteDef;
  tool?: ToolDef;
}

/** Every tool of spec 4.3, each bound to the route that is its REST twin (taken from contracts). */
export function buildToolRegistry(): Map<string, RegisteredTool> {
  const byName = new Map<string, RegisteredTool>();
  for (const route of Object.values(Routes) as RouteDef[]) {
    if (route.tool) byName.set(route.tool.name, { name: route.tool.name, route, tool: route.tool });
  }
  for (const name of MCP_TOOL_NAMES) if (!byName.has(name)) byName.set(name, { name });
  return byName;
}

const EMPTY_INPUT = Type.Object({}, { additionalProperties: true });

export interface ListingContext {
  /** What earlier entries spelled out, said once in the whole list. */
  listed: Listed;
}

/**
 * One tools/list entry: a short title, the tool's own description, its arguments fully
 * described (tool-presentation.ts), the shape of its result, and its REST equivalent in `_meta`
 * for callers that hold an API key (an OAuth caller needs mcp:read or mcp:write, not the REST scope).
 */
export function listEntry(t: RegisteredTool, ctx: ListingContext) {
  if (!t.tool || !t.route) {
    return {
      name: t.name,
      title: t.name,
      description: 'Not available on this server yet; calling it answers the error code not_available.',
      inputSchema: EMPTY_INPUT,
      annotations: { readOnlyHint: true },
    };
  }
  return {
    name: t.name,
    title: t.tool.title ?? t.route.summary,
    description: t.tool.description,
    inputSchema: presentInput(t.name, t.tool.input, ctx.listed),
    outputSchema: presentOutput(t.name, t.tool.output ?? t.route.response, ctx.listed),
    annotations: withoutDefaults(t.tool.annotations),
    _meta: { [REST_META_KEY]: `${t.route.method.toUpperCase()} ${t.route.path}, scope ${t.route.scope}` },
  };
}

/** Hints at the protocol's default are left out (destructive and open-world unless said, not idempotent); readOnlyHint is always said. */
const HINT_DEFAULTS: Record<string, boolean> = { destructiveHint: true, idempotentHint: false, openWorldHint: true };
function withoutDefaults(annotations: Record<string, boolean | undefined>): Record<string, boolean | undefined> {
  return Object.fromEntries(Object.entries(annotations).filter(([hint, value]) => HINT_DEFAULTS[hint] !== value));
}

/** `_meta` key of a tool's REST equivalent (a prefix of our own: unprefixed and mcp-prefixed keys are the protocol's). */
export const REST_META_KEY = 'postbus/rest';
