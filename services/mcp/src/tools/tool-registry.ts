import { Type } from '@sinclair/typebox';
import { MCP_TOOL_NAMES, Routes, type RouteDef, type ToolDef } from '@postbus/contracts';

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

export function listEntry(t: RegisteredTool) {
  if (!t.tool || !t.route) {
    return {
      name: t.name,
      description: 'Not available on this server yet; calling it answers the error code not_available.',
      inputSchema: EMPTY_INPUT,
      annotations: { readOnlyHint: true },
    };
  }
  return {
    name: t.name,
    title: t.route.summary,
    description: `${t.tool.description} (REST twin: ${t.route.method.toUpperCase()} ${t.route.path}, scope ${t.route.scope})`,
    inputSchema: t.tool.input,
    outputSchema: t.tool.output ?? t.route.response,
    annotations: t.tool.annotations,
  };
}
