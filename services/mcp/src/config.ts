import { bool, int, loadConfig, oneOf, str, type VarSpec } from '@postbus/kit';
import { serviceVars } from '@postbus/service';
import { parseHostName, parseOrigin } from './entry-points/http/caller-origin.policy';

function list(doc: string, parseEntry: (entry: string) => string): VarSpec<string[]> {
  return {
    doc,
    default: [],
    parse: (raw) =>
      raw
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
        .map(parseEntry),
  };
}

export const mcpVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production answers the agent endpoints only for the hosts and origins below, never for loopback names',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  MCP_HTTP_PORT: int('Port of the agent endpoint (/api/mcp) behind the gateway', 3003),
  HOST: str(
    'Interface both listeners bind (0.0.0.0 in containers, where the gateway and the ingress are other hosts)',
    '127.0.0.1',
  ),
  MCP_HOST_PORT: int('Port of {mcp_host}, the deprecated agent host (POST /auth key exchange and /mcp)', 3006),
  PUBLIC_BASE_URL: str('The {base_url} clients see', 'http://localhost:3000'),
  MCP_ALLOWED_HOSTS: list(
    "Host names the agent endpoints answer besides PUBLIC_BASE_URL's, comma-separated (e.g. the public name of {mcp_host}); outside production also localhost, 127.0.0.1 and [::1]. Any other Host (or X-Forwarded-Host from a proxy) gets 403: DNS-rebinding protection",
    parseHostName,
  ),
  MCP_ALLOWED_ORIGINS: list(
    "Browser origins allowed to call the agent endpoints besides PUBLIC_BASE_URL's, comma-separated (e.g. https://app.example.com); outside production also loopback origins on any port. Another Origin, or Origin: null, gets 403; requests without Origin (non-browser clients) pass",
    parseOrigin,
  ),
  MCP_REQUIRE_AUTH_FOR_ALL: bool(
    'Every MCP method needs credentials, for clients that start OAuth only from a 401 on initialize',
    false,
  ),
  AUTH_CACHE_MS: int('How long a verified credential is trusted before asking auth again (ms)', 5000, 0),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(mcpVars, env);
}
export type McpConfig = ReturnType<typeof readConfig>;
