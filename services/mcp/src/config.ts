import { bool, int, loadConfig, str } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const mcpVars = {
  ...serviceVars,
  MCP_HTTP_PORT: int('Port of the agent endpoint (/api/mcp) behind the gateway', 3003),
  HOST: str('Interface both listeners bind (0.0.0.0 in containers, where the gateway and the ingress are other hosts)', '127.0.0.1'),
  MCP_HOST_PORT: int('Port of {mcp_host}, the deprecated agent host (POST /auth key exchange and /mcp)', 3006),
  PUBLIC_BASE_URL: str('The {base_url} clients see', 'http://localhost:3000'),
  MCP_REQUIRE_AUTH_FOR_ALL: bool('Every MCP method needs credentials, for clients that start OAuth only from a 401 on initialize', false),
  AUTH_CACHE_MS: int('How long a verified credential is trusted before asking auth again (ms)', 5000, 0),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(mcpVars, env);
}
export type McpConfig = ReturnType<typeof readConfig>;
