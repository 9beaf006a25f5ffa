import type { RequestHandler } from 'express';
import { MCP_SCOPES } from '@postbus/contracts';
import { SERVER_INFO } from '../../tools/tool-server';
import { iconsOf } from './icon';

/** The server card, served at every discovery address (it is the same document). */
export function serverCard(baseUrl: string) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    name: SERVER_INFO.name,
    version: SERVER_INFO.version,
    title: SERVER_INFO.title,
    icons: iconsOf(baseUrl),
    description:
      'Schedule and publish social content to Instagram, TikTok, YouTube, Threads and Facebook; poll for the outcome.',
    remotes: [{ type: 'streamable-http', url: `${baseUrl}/api/mcp` }],
    capabilities: { tools: { listChanged: false } },
    authentication: {
      required: true,
      schemes: ['oauth2', 'bearer'],
      oauth2: {
        authorizationServer: baseUrl,
        protectedResourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource/api/mcp`,
        scopes: MCP_SCOPES,
      },
      bearer: { description: 'An sk_live_ API key sent as Authorization: Bearer <key>.' },
    },
  };
}

export function serverCardHandler(baseUrl: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(serverCard(baseUrl));
  };
}

/**
 * The scopes that grant access to this resource. offline_access asks the authorization server for
 * a refresh token, not the resource for anything: a client that wants one adds it because the
 * authorization server's metadata lists it (SEP-2207).
 */
const RESOURCE_SCOPES = MCP_SCOPES.filter((s) => s !== 'offline_access');

/** RFC 9728 protected resource metadata for /api/mcp. */
export function protectedResourceHandler(baseUrl: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json({
      resource: `${baseUrl}/api/mcp`,
      authorization_servers: [baseUrl],
      scopes_supported: RESOURCE_SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Postbus agent endpoint',
    });
  };
}
