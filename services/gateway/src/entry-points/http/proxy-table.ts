import type { GatewayConfig } from '../../config';
import type { ProxyRoute } from './proxy';

/**
 * Paths the gateway streams to their owning service instead of turning them into RPCs, and how
 * floods on each are bounded (flood-guards.ts): every one per client address unless `unlimited`,
 * credential attempts (`attempts`) in a tight bucket per address, bearer routes (`perCredential`)
 * per credential too.
 */
export function proxyTable(config: GatewayConfig): ProxyRoute[] {
  return [
    // e.g. { prefix: '/settings', target: config.AUTH_HTTP_URL },
    // The connect handoff pages and the platforms' OAuth redirects.
    { prefix: '/connect', target: config.CONNECTIONS_HTTP_URL },
    { prefix: '/oauth/callback', target: config.CONNECTIONS_HTTP_URL },
    // Postbus as a Bluesky (atproto) OAuth client: its client metadata document and key set, read by authorization servers.
    { prefix: '/oauth/bluesky', target: config.CONNECTIONS_HTTP_URL },
    { prefix: '/signup', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/signin', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/signout', target: config.AUTH_HTTP_URL },
    { prefix: '/settings', target: config.AUTH_HTTP_URL },
    // The OAuth 2.1 authorization server (metadata, consent, token, registration, revocation) and the deprecated key exchange.
    { prefix: '/.well-known/oauth-authorization-server', target: config.AUTH_HTTP_URL },
    { prefix: '/oauth/authorize', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/oauth/token', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/oauth/register', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/oauth/revoke', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/api/auth/mcp-token', target: config.AUTH_HTTP_URL, attempts: ['POST'] },
    { prefix: '/api/mcp', target: config.MCP_HTTP_URL, perCredential: true },
    { prefix: '/.well-known/mcp', target: config.MCP_HTTP_URL },
    { prefix: '/.well-known/mcp.json', target: config.MCP_HTTP_URL },
    { prefix: '/.well-known/oauth-protected-resource', target: config.MCP_HTTP_URL },
    { prefix: '/approvals', target: config.POSTS_HTTP_URL },
    // Comment webhooks from Meta (handshake and signed events), checked by automation against the raw body.
    { prefix: '/webhooks/meta', target: config.AUTOMATION_HTTP_URL, unlimited: true },
    // The multipart upload (exactly POST /api/v1/media; from-url and the rest are RPC routes) and signed file URLs.
    { prefix: '/api/v1/media', methods: ['POST'], match: /^\/?$/, target: config.MEDIA_HTTP_URL, perCredential: true },
    { prefix: '/files', target: config.MEDIA_HTTP_URL, unlimited: true },
    // Files PUT to a signed upload URL (POST /api/v1/media/upload-url): the token is the grant, bounded per address.
    { prefix: '/uploads', methods: ['PUT'], target: config.MEDIA_HTTP_URL },
  ];
}
