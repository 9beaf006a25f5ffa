import { int, loadConfig, str, url } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const gatewayVars = {
  ...serviceVars,
  PORT: int('Port of the public HTTP listener', 3000),
  HOST: str('Interface the HTTP listener binds', '0.0.0.0'),
  PUBLIC_BASE_URL: str('The {base_url} clients see; defaults to http://localhost:$PORT', ''),
  AUTH_CACHE_MS: int('How long a verified API key is trusted before asking auth again (ms)', 5000, 0),
  BODY_LIMIT: str('Largest JSON body accepted', '1mb'),
  RATE_LIMIT_PER_MINUTE: int('Requests one API key may make per minute, counted across every gateway replica (0 turns the limit off)', 120, 0),
  AUTH_HTTP_URL: url('Where auth serves its pages and OAuth endpoints', 'http://127.0.0.1:3001'),
  MEDIA_HTTP_URL: url('Where media serves uploads and files', 'http://127.0.0.1:3002'),
  MCP_HTTP_URL: url('Where the mcp service serves /api/mcp', 'http://127.0.0.1:3003'),
  CONNECTIONS_HTTP_URL: url('Where connections serves the connect handoff pages and platform callbacks', 'http://127.0.0.1:3004'),
  POSTS_HTTP_URL: url('Where posts serves the approval pages', 'http://127.0.0.1:3005'),
  AUTOMATION_HTTP_URL: url('Where automation receives the platforms\' comment webhooks (/webhooks/meta)', 'http://127.0.0.1:3007'),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(gatewayVars, env);
}
export type GatewayConfig = ReturnType<typeof readConfig>;
