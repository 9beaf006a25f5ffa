import { AppError, compile, describeErrors, Rpc, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import { resourceLinksOf } from './resources';
import type { RegisteredTool } from './tool-registry';

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: 'text'; text: string } | ReturnType<typeof resourceLinksOf>[number])[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function failure(err: AppError): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(err.toBody()) }] };
}

/** How a tool's RPC is run: as its REST twin does by default; a tool may do more (svc_get_post_status waits). */
export type Invoke = (rpcInput: unknown, args: Record<string, unknown>) => Promise<unknown>;

/**
 * Runs a tool as its REST twin would: same RPC, same principal; failures come back in-band as
 * { error, code }. The result links the posts and media it names (resource links).
 */
export async function callTool(
  rpc: RpcClient,
  tool: RegisteredTool | undefined,
  name: string,
  args: unknown,
  principal: Principal,
  invoke?: Invoke,
): Promise<ToolResult> {
  try {
    if (!tool) throw new AppError('not_found', `No tool ${name}.`);
    if (!tool.tool || !tool.route) throw new AppError('not_available', `${name} is not available on this server yet.`);
    const check = compile(tool.tool.input);
    const input = (args ?? {}) as Record<string, unknown>;
    if (tool.tool.validateInput !== false && !check(input))
      throw new AppError('validation_error', `Invalid arguments for ${name}: ${describeErrors(check.errors)}`);
    const rpcInput = tool.tool.toRpc(input);
    const data = invoke
      ? await invoke(rpcInput, input)
      : await rpc.call(tool.route.rpc, rpcInput, principal, { timeoutMs: tool.tool.timeoutMs });
    const result = (tool.tool.fromRpc ? tool.tool.fromRpc(data) : data) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }, ...resourceLinksOf(result)],
      structuredContent: result,
    };
  } catch (err) {
    if (err instanceof AppError) return failure(err);
    return failure(new AppError('internal_error', 'Internal error.'));
  }
}

export { Rpc };
