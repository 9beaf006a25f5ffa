import { MCP_SCOPES } from '@postbus/contracts';

export type OAuthScope = (typeof MCP_SCOPES)[number];

/** What each scope lets a client do, as the consent page says it. */
export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  profile: 'Know which Postbus account and user you are',
  'mcp:read': 'Read your posts, their status, your connected profiles and your account through the agent endpoint',
  'mcp:write': 'Create, schedule, change and delete posts and add media through the agent endpoint',
  offline_access: 'Stay connected while you are away (a refresh token), until you revoke it',
};

/** Granted when a request names no scope: everything but offline access. */
export const DEFAULT_SCOPES: OAuthScope[] = ['profile', 'mcp:read', 'mcp:write'];

export function isOAuthScope(s: string): s is OAuthScope {
  return (MCP_SCOPES as readonly string[]).includes(s);
}

/** A space-separated scope parameter → its scopes in a stable order, or the unknown ones. */
export function parseScopes(raw: unknown): { ok: true; scopes: OAuthScope[] } | { ok: false; unknown: string[] } {
  const asked = typeof raw === 'string' ? raw.split(' ').filter(Boolean) : [];
  if (!asked.length) return { ok: true, scopes: [...DEFAULT_SCOPES] };
  const unknown = asked.filter((s) => !isOAuthScope(s));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, scopes: MCP_SCOPES.filter((s) => asked.includes(s)) };
}

export const mayRefresh = (scopes: readonly string[]) => scopes.includes('offline_access');
