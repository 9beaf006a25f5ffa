import { randomBytes } from 'node:crypto';

export interface ToolAnswer {
  /** HTTP status of the JSON-RPC exchange (401/403 when the credential is refused before any tool runs). */
  status: number;
  /** The tool's in-band error `{ error, code }`, when it answered one. */
  error?: { error: string; code: string };
  /** The JSON-RPC result or error as received. */
  message?: any;
}

/** Reads a JSON-RPC message from a JSON or a server-sent-events answer. */
function readMessage(contentType: string, text: string): any {
  if (contentType.includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim())
      .join('');
    return data ? JSON.parse(data) : undefined;
  }
  return text ? JSON.parse(text) : undefined;
}

/** One `tools/call` on the stateless agent endpoint behind the gateway, as an agent sends it. */
export async function callTool(
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
  key?: string,
): Promise<ToolAnswer> {
  const res = await fetch(`${baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key !== undefined && { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: randomBytes(4).toString('hex'),
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status };
  const message = readMessage(res.headers.get('content-type') ?? '', text);
  const result = message?.result;
  let error: ToolAnswer['error'];
  if (result?.isError) {
    try {
      error = JSON.parse(result.content?.[0]?.text ?? '');
    } catch {
      error = { error: String(result.content?.[0]?.text), code: 'unparsed' };
    }
  }
  return { status: res.status, error, message };
}
