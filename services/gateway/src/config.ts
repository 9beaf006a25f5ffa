import { int, loadConfig, str, url } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const gatewayVars = {
  ...serviceVars,
  PORT: int('Port of the public HTTP listener', 3000),
  HOST: str('Interface the HTTP listener binds', '0.0.0.0'),
  PUBLIC_BASE_URL: str('The {base_url} clients see; defaults to http://localhost:$PORT', ''),
  AUTH_CACHE_MS: int('How long a verified API key is trusted before asking auth again (ms)', 5000, 0),
  BODY_LIMIT: str('Largest JSON body accepted', '1mb'),
  RATE_LIMIT_PER_MINUTE: int(
    'Requests one credential (API key or token) may make per minute to the JSON routes, the agent endpoint and the upload together, counted across every gateway replica (0 turns the limit off)',
    120,
    0,
  ),
  RATE_LIMIT_PER_IP_PER_MINUTE: int(
    'Requests one client address (an IPv6 address by its /64) may make per minute to the pages, OAuth, agent and upload paths; signed files and Meta webhooks are not counted (0 turns the limit off)',
    600,
    0,
  ),
  RATE_LIMIT_ATTEMPTS_PER_IP: int(
    'Credential attempts one client address may make per RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS: sign-in, sign-up, OAuth client registration, token, consent and revocation requests, and every bearer credential refused; past it the address gets 429 on those paths and on any request with a credential until the window ends (0 turns the limit off)',
    30,
    0,
  ),
  RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS: int('Window of RATE_LIMIT_ATTEMPTS_PER_IP, in seconds', 600, 1),
  TRUST_PROXY_HOPS: int(
    'Proxies in front of the gateway (a load balancer, an ingress) whose X-Forwarded-For and X-Forwarded-Proto are believed; 0 when clients reach the gateway directly, so none can name its own address',
    0,
    0,
  ),
  LONG_POLL_MAX_WAITERS: int(
    "Callers one gateway process keeps waiting for a post's outcome (GET /api/v1/posts/{id}?waitFor=final); past it a caller is answered at once with the post as it is",
    1000,
    0,
  ),
  GATEWAY_FINAL_POSTS_CACHE_BYTES: int(
    'Memory one gateway process may hold for answers of posts in a final state (posted, failed, cancelled or rejected, first comment and chain settled), answered again without asking posts; least recently read dropped first (0 keeps none)',
    8 * 1024 * 1024,
    0,
  ),
  GATEWAY_UPSTREAM_TIMEOUT_MS: int(
    'Longest silence of a service behind a streamed path (pages, OAuth, uploads, files, the agent endpoint): waiting for its answer, or between bytes of a body either way; past it 504 upstream_timeout (a long upload or download that keeps moving is never cut)',
    60_000,
    1,
  ),
  AUTH_HTTP_URL: url('Where auth serves its pages and OAuth endpoints', 'http://127.0.0.1:3001'),
  MEDIA_HTTP_URL: url('Where media serves uploads and files', 'http://127.0.0.1:3002'),
  MCP_HTTP_URL: url('Where the mcp service serves /api/mcp', 'http://127.0.0.1:3003'),
  CONNECTIONS_HTTP_URL: url(
    'Where connections serves the connect handoff pages and platform callbacks',
    'http://127.0.0.1:3004',
  ),
  POSTS_HTTP_URL: url('Where posts serves the approval pages', 'http://127.0.0.1:3005'),
  AUTOMATION_HTTP_URL: url(
    "Where automation receives the platforms' comment webhooks (/webhooks/meta)",
    'http://127.0.0.1:3007',
  ),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(gatewayVars, env);
}
export type GatewayConfig = ReturnType<typeof readConfig>;
