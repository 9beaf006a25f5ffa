import { AppError, compile, describeErrors, Rpc, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { RegisteredTool } from './tool-registry';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function failure(err: AppError): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(err.toBody()) }] };
}

/** Runs a tool as its REST twin would: same RPC, same principal; failures come back in-band as { error, code }. */
export async function callTool(rpc: RpcClient, tool: RegisteredTool | undefined, name: string, args: unknown, principal: Principal): Promise<ToolResult> {
  try {
    if (!tool) throw new AppError('not_found', `No tool ${name}.`);
    if (!tool.tool || !tool.route) throw new AppError('not_available', `${name} is not available on this server yet.`);
    const check = compile(tool.tool.input);
    const input = args ?? {};
    if (tool.tool.validateInput !== false && !check(input)) throw new AppError('validation_error', `Invalid arguments for ${name}: ${describeErrors(check.errors)}`);
    const data = await rpc.call(tool.route.rpc, tool.tool.toRpc(input) as never, principal, { timeoutMs: tool.tool.timeoutMs });
    const result = (tool.tool.fromRpc ? tool.tool.fromRpc(data) : data) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    if (err instanceof AppError) return failure(err);
    return failure(new AppError('internal_error', 'Internal error.'));
  }
}

export { Rpc };
